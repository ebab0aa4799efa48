package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/quote"
	"io"
	"io/fs"
	"math/rand/v2"
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
		o.loose.add(name)
		return h, nil
	}
	buf, err := o.compress(header, content)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("compress %s %s: %w", kind, name, err)
	}
	perm, err := o.sharedPerm()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, err)
	}
	if err := perm.Mkdir(dir); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, err)
	}
	tmp, err := createObjectTemp(dir)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, err)
	}
	_, werr := tmp.Write(buf.Bytes())
	aerr := perm.AdjustFile(tmp)
	cerr := tmp.Close()
	if werr != nil || aerr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, errors.Join(werr, aerr, cerr))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return plumbing.ZeroHash, fmt.Errorf("write object %s: %w", name, err)
	}
	o.loose.add(name)
	return h, nil
}

// createObjectTemp creates a temporary object file in dir the way git
// does (git_mkstemp_mode): read-only, 0444 with the umask applying, and
// still open for writing.
func createObjectTemp(dir string) (*os.File, error) {
	for try := 0; ; try++ {
		path := filepath.Join(dir, "tmp_obj_"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o444)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 100 {
			return f, err
		}
	}
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

// maxObjectBytes bounds the trees, commits and tags read here: git's own
// come nowhere near it (a directory of 100,000 files is a tree of about
// 4 MB), and a larger one is damaged or hostile.
const maxObjectBytes = 32 << 20

// maxLooseHeader is the longest header a loose object can have ("commit"
// and a 20-digit size): a longer one is not an object.
const maxLooseHeader = 32

// ErrCorruptObject means an object's stored form does not match what its
// header declares: a loose object that inflates to more or fewer bytes
// than its size, or whose zlib stream or header is bad.
var ErrCorruptObject = errors.New("corrupt object")

// ObjectTooLargeError is a tree, commit or tag larger than the bound of
// what is read here (maxObjectBytes).
type ObjectTooLargeError struct {
	Hash        string
	Kind        plumbing.ObjectType
	Size, Limit int64
}

func (e *ObjectTooLargeError) Error() string {
	return fmt.Sprintf("%s %s is %s bytes, over the limit of %s bytes for a %s read by git-yoimem (a damaged or hostile object)",
		e.Kind, e.Hash, quote.Thousands(e.Size), quote.Thousands(e.Limit), e.Kind)
}

// readLoose reads a loose object without verifying its hash (git verifies
// on fsck; a hook has no time for SHA-1 collision detection on every
// tree). kind is the type wanted, or plumbing.AnyObject. It never inflates
// more than the header declares and one byte more: an object that
// inflates past its size is corrupt (ErrCorruptObject, naming it). With
// limit > 0 a larger declared size is an *ObjectTooLargeError, or with
// partial, the first limit+1 bytes are returned (enough to tell that it is
// too large). An object that is not loose (in the objects directory or an
// alternate) is an error wrapping fs.ErrNotExist: the caller reads packs.
func (o *Objects) readLoose(h plumbing.Hash, kind plumbing.ObjectType, limit int64, partial bool) (plumbing.ObjectType, []byte, error) {
	f, err := o.openLoose(h)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	defer f.Close()
	o.zmu.Lock()
	defer o.zmu.Unlock()
	zr, err := o.zlibReader(o.fileReader(f))
	if err != nil {
		return plumbing.InvalidObject, nil, corrupt(h, "zlib: %v", err)
	}
	typ, size, first, err := looseHeader(zr)
	if err != nil {
		return plumbing.InvalidObject, nil, corrupt(h, "%v", err)
	}
	if kind != plumbing.AnyObject && typ != kind {
		return typ, nil, fmt.Errorf("object %s is a %s, not a %s", h, typ, kind)
	}
	want, whole := size, true
	if limit > 0 && size > limit {
		if !partial {
			return typ, nil, &ObjectTooLargeError{Hash: h.String(), Kind: typ, Size: size, Limit: limit}
		}
		want, whole = limit+1, false
	}
	if int64(len(first)) > want && whole {
		return typ, nil, corrupt(h, "inflates to more than the %d bytes its header declares", size)
	}
	content := make([]byte, want)
	n := copy(content, first)
	if _, err := io.ReadFull(zr, content[n:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return typ, nil, corrupt(h, "inflates to fewer than the %d bytes its header declares", size)
		}
		return typ, nil, corrupt(h, "%v", err)
	}
	if whole {
		// The stream must end here: one byte more is a lie in the header
		// (and reading to the end checks zlib's checksum).
		var one [1]byte
		if k, err := zr.Read(one[:]); k > 0 {
			return typ, nil, corrupt(h, "inflates to more than the %d bytes its header declares", size)
		} else if err != nil && err != io.EOF {
			return typ, nil, corrupt(h, "%v", err)
		}
	}
	return typ, content, nil
}

// looseHeader reads "<type> <size>\x00" from the start of a loose object
// and returns the bytes of content read along with it.
func looseHeader(zr io.Reader) (plumbing.ObjectType, int64, []byte, error) {
	var buf [maxLooseHeader + 64]byte
	n, err := io.ReadFull(zr, buf[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return plumbing.InvalidObject, 0, nil, err
	}
	nul := bytes.IndexByte(buf[:min(n, maxLooseHeader+1)], 0)
	if nul < 0 {
		return plumbing.InvalidObject, 0, nil, errors.New("no object header")
	}
	name, sz, ok := strings.Cut(string(buf[:nul]), " ")
	typ, terr := plumbing.ParseObjectType(name)
	size, serr := strconv.ParseInt(sz, 10, 64)
	if !ok || terr != nil || serr != nil || size < 0 || sz == "" || sz[0] < '0' || sz[0] > '9' {
		return plumbing.InvalidObject, 0, nil, fmt.Errorf("bad object header %q", buf[:nul])
	}
	return typ, size, bytes.Clone(buf[nul+1 : n]), nil
}

func corrupt(h plumbing.Hash, format string, args ...any) error {
	return fmt.Errorf("object %s: %w: %s", h, ErrCorruptObject, fmt.Sprintf(format, args...))
}

// openLoose opens h's loose file in the objects directory or an alternate.
func (o *Objects) openLoose(h plumbing.Hash) (*os.File, error) {
	name := h.String()
	if o.loose.absent(name) {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(o.objectsDir, name[:2], name[2:]), Err: fs.ErrNotExist}
	}
	var first error
	for _, dir := range o.looseDirs() {
		f, err := os.Open(filepath.Join(dir, name[:2], name[2:]))
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("object %s: %w", name, err)
		}
		if first == nil {
			first = err
		}
	}
	o.loose.list(name, o.looseDirs())
	return nil, first
}

// fileReader returns the reused buffered reader, reset to read f (o.zmu
// held): a hook reads a few objects in a fresh process, where each new
// 32 KiB buffer is eight page faults.
func (o *Objects) fileReader(f io.Reader) *bufio.Reader {
	if o.br == nil {
		o.br = bufio.NewReaderSize(f, 32<<10)
	} else {
		o.br.Reset(f)
	}
	return o.br
}

// zlibReader returns the reused zlib reader, reset to read src (o.zmu
// held): a new one allocates more than a small tree takes to inflate.
func (o *Objects) zlibReader(src io.Reader) (io.Reader, error) {
	if o.zr == nil {
		zr, err := zlib.NewReader(src)
		if err != nil {
			return nil, err
		}
		o.zr = zr
		return zr, nil
	}
	if err := o.zr.(zlib.Resetter).Reset(src, nil); err != nil {
		return nil, err
	}
	return o.zr, nil
}
