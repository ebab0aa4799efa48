//go:build unix

package gitstore

import (
	"errors"
	"syscall"
)

// openLastNoFollow opens path refusing a symlink at its last component.
func openLastNoFollow(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return -1, &pathError{"open", path, err}
		}
		return fd, nil
	}
}
