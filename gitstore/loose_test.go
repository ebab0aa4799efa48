package gitstore

import (
	"bytes"
	"compress/zlib"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/record"
)

// writeRawLoose stores stream (a zlib stream, or raw bytes to compress
// when compress is set) as the loose object named hash in objectsDir.
func writeRawLoose(t *testing.T, objectsDir, hash string, stream []byte, compress bool) {
	t.Helper()
	if compress {
		var b bytes.Buffer
		zw := zlib.NewWriter(&b)
		zw.Write(stream)
		zw.Close()
		stream = b.Bytes()
	}
	p := filepath.Join(objectsDir, hash[:2], hash[2:])
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, stream, 0o444); err != nil {
		t.Fatal(err)
	}
}

// TestReadLooseBounded: a loose object is read up to the size its header
// declares and one byte more; anything else about it is ErrCorruptObject
// naming the object, a tree or commit over the bound is refused from its
// header alone, and a blob over the caller's limit gives limit+1 bytes.
func TestReadLooseBounded(t *testing.T) {
	dir, env := newRepo(t)
	objs := objectsOf(t, dir, env)
	objectsDir := filepath.Join(dir, ".git", "objects")
	bomb, err := fixture.ZlibBomb("blob 203\x00", 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	treeBomb, err := fixture.ZlibBomb("tree 99999999999\x00", 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		stream   []byte
		compress bool
		kind     plumbing.ObjectType
		limit    int64
		partial  bool
		want     string // content, when no error
		wantErr  string
		corrupt  bool
	}{
		{name: "exact", stream: []byte("blob 5\x00hello"), compress: true, kind: plumbing.BlobObject, want: "hello"},
		{name: "empty", stream: []byte("blob 0\x00"), compress: true, kind: plumbing.BlobObject, want: ""},
		{name: "one byte more than declared", stream: []byte("blob 5\x00hello!"), compress: true, kind: plumbing.BlobObject, wantErr: "inflates to more than the 5 bytes its header declares", corrupt: true},
		{name: "fewer than declared", stream: []byte("blob 9\x00hello"), compress: true, kind: plumbing.BlobObject, wantErr: "inflates to fewer than the 9 bytes its header declares", corrupt: true},
		{name: "header 203, inflates to 64 MB", stream: bomb, kind: plumbing.BlobObject, limit: 1 << 20, partial: true, wantErr: "more than the 203 bytes", corrupt: true},
		{name: "tree header over the bound", stream: treeBomb, kind: plumbing.TreeObject, limit: maxObjectBytes, wantErr: "tree " + strings.Repeat("ab", 20) + " is 99,999,999,999 bytes, over the limit of 33,554,432 bytes"},
		{name: "blob over the limit: limit+1 bytes", stream: []byte("blob 10\x000123456789"), compress: true, kind: plumbing.BlobObject, limit: 4, partial: true, want: "01234"},
		{name: "blob at the limit", stream: []byte("blob 4\x000123"), compress: true, kind: plumbing.BlobObject, limit: 4, partial: true, want: "0123"},
		{name: "no header", stream: bytes.Repeat([]byte("x"), 200), compress: true, kind: plumbing.BlobObject, wantErr: "no object header", corrupt: true},
		{name: "bad size", stream: []byte("blob -5\x00hello"), compress: true, kind: plumbing.BlobObject, wantErr: "bad object header", corrupt: true},
		{name: "bad type", stream: []byte("blub 5\x00hello"), compress: true, kind: plumbing.BlobObject, wantErr: "bad object header", corrupt: true},
		{name: "other type", stream: []byte("tree 0\x00"), compress: true, kind: plumbing.BlobObject, wantErr: "is a tree, not a blob"},
		{name: "not zlib", stream: []byte("blob 5\x00hello"), kind: plumbing.BlobObject, wantErr: "zlib", corrupt: true},
		{name: "zlib checksum", stream: func() []byte {
			var b bytes.Buffer
			zw := zlib.NewWriter(&b)
			zw.Write([]byte("blob 5\x00hello"))
			zw.Close()
			s := b.Bytes()
			s[len(s)-1] ^= 1
			return s
		}(), kind: plumbing.BlobObject, wantErr: "checksum", corrupt: true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hash := strings.Repeat("ab", 19) + string("0123456789abcdef"[i/16]) + string("0123456789abcdef"[i%16])
			if strings.HasPrefix(tt.name, "tree header") {
				hash = strings.Repeat("ab", 20)
			}
			writeRawLoose(t, objectsDir, hash, tt.stream, tt.compress)
			_, got, err := objs.readObject(plumbing.NewHash(hash), tt.kind, tt.limit, tt.partial)
			if tt.wantErr == "" {
				if err != nil || string(got) != tt.want {
					t.Fatalf("read %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), hash) {
				t.Fatalf("error %v; want one naming %s and %q", err, hash, tt.wantErr)
			}
			if errors.Is(err, ErrCorruptObject) != tt.corrupt {
				t.Errorf("errors.Is(ErrCorruptObject) = %v", !tt.corrupt)
			}
		})
	}
}

// TestReadBlobAlternates: a loose object in an alternate objects directory
// is read by the bounded reader too (go-git would inflate it whole).
func TestReadBlobAlternates(t *testing.T) {
	dir, env := newRepo(t)
	objs := objectsOf(t, dir, env)
	other := filepath.Join(t.TempDir(), "objects")
	if err := os.MkdirAll(filepath.Join(dir, ".git", "objects", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "objects", "info", "alternates"), []byte("# borrowed\n"+other+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	objs = objectsOf(t, dir, env)
	bomb, err := fixture.ZlibBomb("blob 3\x00", 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	hash := strings.Repeat("cd", 20)
	writeRawLoose(t, other, hash, bomb, false)
	if _, err := objs.ReadBlob(hash, 1<<20); !errors.Is(err, ErrCorruptObject) || !strings.Contains(err.Error(), hash) {
		t.Fatalf("ReadBlob from an alternate: %v, want ErrCorruptObject naming it", err)
	}
	good := strings.Repeat("ce", 20)
	writeRawLoose(t, other, good, []byte("blob 2\x00ok"), true)
	if b, err := objs.ReadBlob(good, 0); err != nil || string(b) != "ok" {
		t.Fatalf("ReadBlob from an alternate: %q, %v", b, err)
	}
}

// TestReadPackedBounded: packed objects (go-git) honour the same limits:
// a blob over the caller's limit is refused with its real size (a
// *record.TooLargeError), and the content is what git stored.
func TestReadPackedBounded(t *testing.T) {
	dir, env := newRepo(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 256<<10) // 4 MiB: streamed by go-git
	writeFile(t, dir, "big.bin", big, 0o644)
	writeFile(t, dir, "small.txt", []byte("small\n"), 0o644)
	runGit(t, dir, env, "add", "big.bin", "small.txt")
	runGit(t, dir, env, "commit", "-q", "-m", "big")
	runGit(t, dir, env, "repack", "-a", "-d", "-q")
	runGit(t, dir, env, "prune-packed")
	bigHash := strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD:big.bin"))
	smallHash := strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD:small.txt"))
	if _, err := os.Stat(filepath.Join(dir, ".git", "objects", bigHash[:2], bigHash[2:])); err == nil {
		t.Fatal("the blob is still loose")
	}
	objs := objectsOf(t, dir, env)
	var tl *record.TooLargeError
	if b, err := objs.ReadBlob(bigHash, 1000); !errors.As(err, &tl) || tl.Size != int64(len(big)) || b != nil {
		t.Fatalf("ReadBlob(big, 1000) = %d bytes, %v; want the refusal with its size", len(b), err)
	}
	if b, err := objs.ReadBlob(bigHash, 0); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("ReadBlob(big, 0) = %d bytes, %v", len(b), err)
	}
	if b, err := objs.ReadBlob(smallHash, 1000); err != nil || string(b) != "small\n" {
		t.Fatalf("ReadBlob(small) = %q, %v", b, err)
	}
	tree, err := objs.commitTree(plumbing.NewHash(strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD"))))
	if err != nil || tree.String() != strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD^{tree}")) {
		t.Fatalf("commitTree of a packed commit: %v, %v", tree, err)
	}
}
