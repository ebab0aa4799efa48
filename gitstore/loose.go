package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// writeLoose stores an object as a loose object in the common objects
// directory, the way git does (temporary file, rename), compressed for
// speed rather than size: memory commits rewrite directory trees of
// thousands of entries, and git gc repacks later anyway. An object that is
// already there is not written again.
func (o *Objects) writeLoose(kind plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	header := kind.String() + " " + strconv.Itoa(len(content)) + "\x00"
	sum := sha1.New()
	sum.Write([]byte(header))
	sum.Write(content)
	var h plumbing.Hash
	copy(h[:], sum.Sum(nil))
	name := hex.EncodeToString(h[:])
	dir := filepath.Join(o.objectsDir, name[:2])
	path := filepath.Join(dir, name[2:])
	if _, err := os.Stat(path); err == nil {
		// Freshen it, as git does, so a concurrent prune of unreachable
		// objects does not take it just before our ref makes it reachable.
		now := time.Now()
		_ = os.Chtimes(path, now, now)
		return h, nil
	}
	buf, err := o.compress(header, content)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("compress %s %s: %w", kind, name, err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, err)
	}
	tmp, err := os.CreateTemp(dir, "tmp_obj_")
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, err)
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, errors.Join(werr, cerr))
	}
	_ = os.Chmod(tmp.Name(), 0o444)
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, err)
	}
	return h, nil
}

// compress deflates an object with one reused writer: a new zlib writer
// allocates more than a small object takes to compress.
func (o *Objects) compress(header string, content []byte) (*bytes.Buffer, error) {
	o.zmu.Lock()
	defer o.zmu.Unlock()
	buf := &bytes.Buffer{}
	buf.Grow(len(content)/2 + 64)
	if len(content) > 32<<10 {
		// Large trees are stored uncompressed (still valid zlib): gc packs
		// and deltas them later, and a memory commit should not wait on
		// deflating a directory of thousands of records.
		zw, err := zlib.NewWriterLevel(buf, zlib.NoCompression)
		if err != nil {
			return nil, err
		}
		zw.Write([]byte(header))
		zw.Write(content)
		return buf, zw.Close()
	}
	if o.zw == nil {
		zw, err := zlib.NewWriterLevel(buf, zlib.BestSpeed)
		if err != nil {
			return nil, err
		}
		o.zw = zw
	} else {
		o.zw.Reset(buf)
	}
	o.zw.Write([]byte(header))
	o.zw.Write(content)
	return buf, o.zw.Close()
}

// readLoose reads a loose object of the given type without verifying its
// hash (git verifies on fsck; a hook has no time for SHA-1 collision
// detection on every tree). Packed objects return an error: the caller
// asks go-git.
func (o *Objects) readLoose(h plumbing.Hash, kind plumbing.ObjectType) ([]byte, error) {
	name := h.String()
	f, err := os.Open(filepath.Join(o.objectsDir, name[:2], name[2:]))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var guess int64 = 4 << 10
	if fi, err := f.Stat(); err == nil {
		guess = fi.Size()*4 + 512 // trees compress about 3:1
	}
	buf := bytes.NewBuffer(make([]byte, 0, guess))
	if err := o.inflate(buf, bufio.NewReaderSize(f, 32<<10)); err != nil {
		return nil, fmt.Errorf("object %s: %w", name, err)
	}
	b := buf.Bytes()
	nul := bytes.IndexByte(b, 0)
	if nul < 0 {
		return nil, fmt.Errorf("object %s: no header", name)
	}
	typ, size, ok := strings.Cut(string(b[:nul]), " ")
	if !ok || typ != kind.String() || size != strconv.Itoa(len(b)-nul-1) {
		return nil, fmt.Errorf("object %s: header %q, want a %s", name, b[:nul], kind)
	}
	return b[nul+1:], nil
}

// inflate decompresses src into dst with one reused zlib reader.
func (o *Objects) inflate(dst *bytes.Buffer, src io.Reader) error {
	o.zmu.Lock()
	defer o.zmu.Unlock()
	if o.zr == nil {
		zr, err := zlib.NewReader(src)
		if err != nil {
			return err
		}
		o.zr = zr
	} else if err := o.zr.(zlib.Resetter).Reset(src, nil); err != nil {
		return err
	}
	_, err := dst.ReadFrom(o.zr)
	return err
}
