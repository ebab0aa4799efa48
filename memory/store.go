package memory

import (
	"context"
	"fmt"
	"sync"

	"github.com/yoimem/git-yoimem/record"
)

// Store is where the memory tools read and write: the working tree's
// .yoi/ (gitstore.WorktreeStore), or an overlay over a snapshot for the
// consolidation agent (MapStore). Paths are .yoi/-relative.
//
// Every write of the tools is a read-modify-write: under Lock, the tool
// reads the snapshot, lints the change against it and writes. Lock must
// exclude every other writer of the store (other goroutines, and other
// processes when the store is shared with them), so that no write is lost
// between the read and the write. Write and Delete also check that the
// file is still the version the tool read (prev: its blob id, "" for a
// file that did not exist) and otherwise refuse with an error wrapping
// record.ErrChanged: a writer that takes no lock (an editor) is noticed,
// not overwritten.
type Store interface {
	Snapshot() (record.Snapshot, error)
	// Lock waits for the store's writers' lock, or until ctx ends (its
	// error), or a bound of the store's own.
	Lock(ctx context.Context) (unlock func(), err error)
	Write(path string, content []byte, prev string) error
	Delete(path string, prev string) error
}

// MapStore is an in-memory Store: tests, and the overlay the consolidation
// agent writes to before anything reaches git. It is safe for concurrent
// use; read Files directly only when no operation runs.
type MapStore struct {
	Files    map[string][]byte
	ReadOnly map[string]bool

	mu   sync.Mutex    // guards the maps and lock
	lock chan struct{} // the writers' lock: holding it is having sent to it
}

// Snapshot lists the files as they are now; later writes do not change it.
func (m *MapStore) Snapshot() (record.Snapshot, error) {
	m.mu.Lock()
	files := make(map[string][]byte, len(m.Files))
	for p, b := range m.Files {
		files[p] = b // never changed in place: Write stores a copy
	}
	snap := record.MapSnapshot(files)
	for i, e := range snap.Entries {
		snap.Entries[i].ReadOnly = m.ReadOnly[e.Path]
	}
	m.mu.Unlock()
	return snap, nil
}

// Lock takes the writers' lock, waiting for it as long as ctx lets it.
func (m *MapStore) Lock(ctx context.Context) (func(), error) {
	m.mu.Lock()
	if m.lock == nil {
		m.lock = make(chan struct{}, 1)
	}
	l := m.lock
	m.mu.Unlock()
	select {
	case l <- struct{}{}:
		return func() { <-l }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for the writers' lock: %w", ctx.Err())
	}
}

// Write stores a copy of content if path is still prev.
func (m *MapStore) Write(path string, content []byte, prev string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(path, prev); err != nil {
		return err
	}
	if m.Files == nil {
		m.Files = map[string][]byte{}
	}
	m.Files[path] = append([]byte(nil), content...)
	return nil
}

// Delete removes a file if it is still prev.
func (m *MapStore) Delete(path string, prev string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.check(path, prev); err != nil {
		return err
	}
	delete(m.Files, path)
	return nil
}

func (m *MapStore) check(path, prev string) error {
	b, ok := m.Files[path]
	if ok != (prev != "") || ok && record.BlobID(b) != prev {
		return fmt.Errorf("%s: %w", path, record.ErrChanged)
	}
	return nil
}
