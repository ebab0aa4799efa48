package agent

import (
	"strings"
	"unicode/utf8"
)

// moreReserve is the room a cut text keeps for the line that says how
// much it left out; every such line is shorter.
const moreReserve = 300

// writer builds a text and counts its characters.
type writer struct {
	b strings.Builder
	n int
}

func (w *writer) str(s string) {
	w.b.WriteString(s)
	w.n += utf8.RuneCountInString(s)
}

// list writes items in order while they fit in limit characters from
// here. When one does not fit it stops and, if more is not nil, writes
// the line more(left), for which it keeps room all along, so that nothing
// is left out without saying so. It returns how many items it wrote.
func (w *writer) list(limit int, items []string, more func(left int) string) int {
	start := w.n
	reserve := 0
	if more != nil {
		reserve = utf8.RuneCountInString(more(len(items))) // the most digits
	}
	for i, it := range items {
		room := limit - (w.n - start)
		if i < len(items)-1 {
			room -= reserve
		}
		if utf8.RuneCountInString(it) > room {
			if more != nil {
				w.str(clip(more(len(items)-i), limit-(w.n-start)))
			}
			return i
		}
		w.str(it)
	}
	return len(items)
}

// clip cuts s to at most n characters. The lines it is used on are ours
// and fit where they are written: this only guards the budget.
func clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "\n"
}

// capText keeps text within n characters: cut at a line break when there
// is one near the end, with the line note(left) saying how many
// characters were cut. It reports whether text was kept whole.
func capText(text string, n int, note func(left int) string) (string, bool) {
	total := utf8.RuneCountInString(text)
	if total <= n {
		return text, true
	}
	keep := max(0, n-moreReserve-1)
	r := []rune(text)
	cut := string(r[:keep])
	if i := strings.LastIndexByte(cut, '\n'); i >= len(cut)*3/4 {
		cut = cut[:i+1]
	} else if cut != "" {
		cut += "\n"
	}
	left := total - utf8.RuneCountInString(cut)
	return cut + clip(note(left), moreReserve), false
}
