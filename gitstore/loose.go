package gitstore

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

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
		return h, nil
	}
	var buf bytes.Buffer
	zw, err := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	zw.Write([]byte(header))
	zw.Write(content)
	if err := zw.Close(); err != nil {
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
