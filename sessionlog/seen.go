package sessionlog

// SeenWindow is how many recent message ids a reader remembers to
// deduplicate usage, and the most Reader.Seen returns. The lines of one API
// call are written together, so a short window is enough; keeping it
// bounded makes a resumed read (given Seen) behave exactly as a read from
// the start of the file.
const SeenWindow = 64

// seenSet is a bounded set of recent ids, oldest first.
type seenSet struct {
	ids []string
	set map[string]struct{}
}

func newSeenSet(ids []string) *seenSet {
	s := &seenSet{set: make(map[string]struct{}, SeenWindow)}
	for _, id := range ids {
		s.add(id)
	}
	return s
}

// add records id and reports whether it is new. The empty id is always
// new and never recorded.
func (s *seenSet) add(id string) bool {
	if id == "" {
		return true
	}
	if _, ok := s.set[id]; ok {
		return false
	}
	if len(s.ids) == SeenWindow {
		delete(s.set, s.ids[0])
		s.ids = append(s.ids[:0], s.ids[1:]...)
	}
	s.ids = append(s.ids, id)
	s.set[id] = struct{}{}
	return true
}

// last is the most recently added id, or "".
func (s *seenSet) last() string {
	if len(s.ids) == 0 {
		return ""
	}
	return s.ids[len(s.ids)-1]
}

// list returns a copy of the ids, oldest first.
func (s *seenSet) list() []string { return append([]string(nil), s.ids...) }
