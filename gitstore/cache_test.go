package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestObjectCacheBounded: the blobs read from a pack are not all kept in
// memory: a consolidation run reads every record of the memory, and the
// heap it holds after reading 64 MiB of blobs stays near the object
// cache's bound (objectCacheBytes), not the size of what was read.
func TestObjectCacheBounded(t *testing.T) {
	dir, env := newRepo(t)
	r := rand.New(rand.NewPCG(1, 2))
	const n, size = 256, 256 << 10 // incompressible: the pack is as large
	for i := 0; i < n; i++ {
		b := make([]byte, size)
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		writeFile(t, dir, fmt.Sprintf("blobs/%03d.bin", i), b, 0o644)
	}
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "blobs")
	runGit(t, dir, env, "-c", "pack.window=0", "repack", "-adq")
	runGit(t, dir, env, "prune-packed")
	var hashes []string
	for _, line := range strings.Split(runGit(t, dir, env, "ls-tree", "HEAD", "blobs/"), "\n") {
		if f := strings.Fields(line); len(f) == 4 {
			hashes = append(hashes, f[2])
		}
	}
	if len(hashes) != n {
		t.Fatalf("%d blobs in the tree, want %d", len(hashes), n)
	}
	repo, err := Locate(context.Background(), Git{Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := OpenObjects(repo)
	if err != nil {
		t.Fatal(err)
	}
	before := heapAfterGC()
	for _, h := range hashes {
		if b, err := objs.ReadBlob(h, 0); err != nil || len(b) != size {
			t.Fatalf("ReadBlob %s: %d bytes, %v", h, len(b), err)
		}
	}
	held := heapAfterGC() - before
	runtime.KeepAlive(objs)
	t.Logf("reading %d MiB of packed blobs left %d MiB on the heap", n*size>>20, held>>20)
	if limit := uint64(48 << 20); held > limit {
		t.Fatalf("reading %d MiB of packed blobs left %d MiB on the heap, over %d MiB", n*size>>20, held>>20, limit>>20)
	}
}

func heapAfterGC() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestLooseNames: once a packed object was looked for loose, its fan-out
// directory is known and a lookup there needs no failing open; an object
// written loose afterwards, by this process or another, is still read.
func TestLooseNames(t *testing.T) {
	dir, env := newRepo(t)
	writeFile(t, dir, "a.txt", []byte("packed\n"), 0o644)
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "a")
	runGit(t, dir, env, "repack", "-adq")
	runGit(t, dir, env, "prune-packed")
	packed := strings.Fields(runGit(t, dir, env, "ls-tree", "HEAD", "a.txt"))[2]
	repo, err := Locate(context.Background(), Git{Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := OpenObjects(repo)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := objs.ReadBlob(packed, 0); err != nil || string(b) != "packed\n" {
		t.Fatalf("ReadBlob(packed) = %q, %v", b, err)
	}
	if !objs.loose.absent(packed) {
		t.Fatalf("the fan-out of %s was not listed after a miss", packed)
	}
	// Another process writes an object into a listed fan-out directory.
	var other string
	for i := 0; ; i++ {
		content := fmt.Sprintf("other %d\n", i)
		writeFile(t, dir, "b.txt", []byte(content), 0o644)
		if h := runGit(t, dir, env, "hash-object", "b.txt"); h[:2] == packed[:2] {
			other = runGit(t, dir, env, "hash-object", "-w", "b.txt")
			if b, err := objs.ReadBlob(other, 0); err != nil || string(b) != content {
				t.Fatalf("ReadBlob(%s written after the listing) = %q, %v", other, b, err)
			}
			break
		}
	}
	// This process writes one: it is read loose.
	for i := 0; ; i++ {
		content := []byte(fmt.Sprintf("ours %d\n", i))
		if h := blobHash(content); h[:2] == packed[:2] {
			if _, err := objs.WriteBlob(content); err != nil {
				t.Fatal(err)
			}
			if objs.loose.absent(h) {
				t.Fatalf("%s, written here, is not known loose", h)
			}
			if b, err := objs.ReadBlob(h, 0); err != nil || !bytes.Equal(b, content) {
				t.Fatalf("ReadBlob(%s) = %q, %v", h, b, err)
			}
			break
		}
	}
}

func blobHash(content []byte) string {
	return plumbing.ComputeHash(plumbing.BlobObject, content).String()
}
