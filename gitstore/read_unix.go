//go:build unix

package gitstore

import (
	"errors"
	"fmt"
	"syscall"
)

// readNoFollow reads a regular file without following symlinks (see
// openNoFollow). It talks to the kernel directly: os.File's poller
// registration and stat cost more than the read for small records, and
// lint reads 10,000 of them. size is the listed size (-1: unknown). A file
// over maxRead (when > 0) is not read: the error is a
// *record.TooLargeError with its real size. The file is read into buf's
// memory when it fits there (nil: a new buffer).
func readNoFollow(path string, size, maxRead int64, buf []byte) ([]byte, error) {
	fd, err := openNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if size < 0 || (maxRead > 0 && size > maxRead) {
		// Unknown, or listed too large: the open file says what it is now.
		if size, err = fdSize(fd, path); err != nil {
			return nil, err
		}
		if maxRead > 0 && size > maxRead {
			return nil, tooLarge(size, maxRead)
		}
	}
	want := size + 1 // one more byte tells a file that grew
	if maxRead > 0 && want > maxRead+1 {
		want = maxRead + 1
	}
	if int64(cap(buf)) < want {
		buf = make([]byte, 0, want)
	}
	buf = buf[:0]
	for {
		end := cap(buf)
		if maxRead > 0 && int64(end) > maxRead+1 {
			end = int(maxRead + 1) // buf grows past want when the file grew
		}
		n, err := syscall.Read(fd, buf[len(buf):end])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &pathError{"read", path, err}
		}
		buf = buf[:len(buf)+n]
		switch {
		case maxRead > 0 && int64(len(buf)) > maxRead:
			// It grew past the limit while listed or read: refuse it
			// whole, with the size it has now.
			now, err := fdSize(fd, path)
			if err != nil {
				return nil, err
			}
			return nil, tooLarge(max(now, int64(len(buf))), maxRead)
		case n == 0:
			return buf, nil
		case len(buf) < cap(buf) && int64(len(buf)) == size:
			return buf, nil // the listed size, and the kernel said no more
		case len(buf) == cap(buf):
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

func fdSize(fd int, path string) (int64, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return 0, &pathError{"stat", path, err}
	}
	return st.Size, nil
}

type pathError struct {
	op, path string
	err      error
}

func (e *pathError) Error() string { return fmt.Sprintf("%s %s: %v", e.op, e.path, e.err) }
func (e *pathError) Unwrap() error { return e.err }
