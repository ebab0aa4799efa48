package capture

import (
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/quote"
	"math/rand"
	"testing"
)

func TestLimited(t *testing.T) {
	tests := []struct {
		name   string
		max    int64
		chunks []string
		want   string
		over   bool
	}{
		{"empty", 4, nil, "", false},
		{"at the limit", 4, []string{"ab", "cd"}, "abcd", false},
		{"one over", 4, []string{"ab", "cde"}, "abcd", true},
		{"far over", 4, []string{"abcdefgh", "ij"}, "abcd", true},
		{"zero limit", 0, []string{"a"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			l := &Limited{Max: tt.max, OnOver: func() { calls++ }}
			var err error
			for _, c := range tt.chunks {
				if _, e := l.Write([]byte(c)); e != nil {
					err = e
				}
			}
			if string(l.Bytes()) != tt.want || l.Over() != tt.over {
				t.Errorf("kept %q over %v, want %q %v", l.Bytes(), l.Over(), tt.want, tt.over)
			}
			if tt.over != errors.Is(err, ErrLimit) {
				t.Errorf("error %v", err)
			}
			if want := map[bool]int{true: 1, false: 0}[tt.over]; calls != want {
				t.Errorf("OnOver called %d times, want %d", calls, want)
			}
		})
	}
}

func TestHeadTail(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, keep := range []int{1, 3, 16} {
		for _, size := range []int{0, 1, keep, 2 * keep, 2*keep + 1, 100, 1000} {
			all := make([]byte, size)
			for i := range all {
				all[i] = byte('a' + rng.Intn(26))
			}
			h := &HeadTail{Keep: keep}
			for rest := all; len(rest) > 0; {
				n := min(len(rest), 1+rng.Intn(2*keep+2))
				h.Write(rest[:n])
				rest = rest[n:]
			}
			want := string(all)
			if size > 2*keep {
				want = string(all[:keep]) + fmt.Sprintf("\n[... %s bytes left out ...]\n", quote.Thousands(int64(size-2*keep))) + string(all[size-keep:])
			}
			if got := h.String(); got != want {
				t.Errorf("keep %d, size %d: %q, want %q", keep, size, got, want)
			}
		}
	}
}
