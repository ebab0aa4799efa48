//go:build linux

package secrets

import (
	"os"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"
)

// anchor is one of Find's anchors: the byte it looks at and its matcher,
// which returns where Find's scan resumes after it.
type anchor struct {
	c  byte
	at func([]byte, int) int
}

// resumes is scanByte's matcher as an anchor's: the scan resumes at the
// end of a match, else at the next byte.
func resumes(at func([]byte, int) (Match, bool)) func([]byte, int) int {
	return func(text []byte, i int) int {
		if m, ok := at(text, i); ok && m.End > i {
			return m.End
		}
		return i + 1
	}
}

// anchors are Find's, in its order.
var anchors = [...]anchor{
	{'-', resumes(atDash)}, {'_', resumes(atUnderscore)}, {'.', resumes(atDot)}, {'~', resumes(atTilde)},
	{':', resumes(atColon)}, {'=', resumes(atAssign)}, {'A', resumes(atA)},
	{'J', func(text []byte, i int) int { // scanJ
		m, ok, next := atJ(text, i)
		switch {
		case ok:
			return m.End
		case next > i:
			return next
		}
		return i + 1
	}},
}

// reach is how far from its anchor a matcher may read without matching:
// more than the longest bounded look (maxPyPI, maxValue, a private key's
// first KiB) with room to spare.
const reach = 8 << 10

// TestBoundedWorkPerAnchor is Find's linear time checked without a clock:
// every matcher, at every anchor of the adversarial inputs, reads only
// within reach of its anchor, or up to where Find's scan resumes after
// it (the end of a match, or where the matcher says no match can start):
// bytes the scan skips are read once. The input sits between pages that cannot be read; a read outside
// the allowed span faults, which debug.SetPanicOnFault turns into a
// panic the test reports. Any scan that does not stop at a bound (what
// makes Find quadratic: "sk-sk-sk-..." scanned to the end from every
// anchor) reaches those pages, however fast the machine.
func TestBoundedWorkPerAnchor(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector instruments reads of memory outside Go's heap")
	}
	page := os.Getpagesize()
	guard := page
	window := (3*reach + page - 1) / page * page // anchors in the middle third
	mem, err := syscall.Mmap(-1, 0, guard+window+guard, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	lo, hi := guard, guard+window // the readable span of mem
	protect := func(prot int) {
		for _, g := range [][]byte{mem[:lo], mem[hi:]} {
			if err := syscall.Mprotect(g, prot); err != nil {
				t.Fatalf("mprotect: %v", err)
			}
		}
	}
	base := uintptr(unsafe.Pointer(&mem[0]))
	for _, unit := range adversarialUnits() {
		protect(syscall.PROT_READ | syscall.PROT_WRITE)
		clear(mem)
		for p := lo; p < hi; p += copy(mem[p:hi], unit) {
		}
		protect(syscall.PROT_NONE)
		checked := 0
		for _, a := range anchors {
			for i := lo + reach; i < hi-reach; i++ {
				if mem[i] != a.c {
					continue
				}
				checked++
				addr, faulted := call(a.at, mem, i)
				if !faulted {
					continue
				}
				protect(syscall.PROT_READ) // read everything: where does the scan resume?
				next := a.at(mem, i)
				protect(syscall.PROT_NONE)
				if at := int(addr - base); at < lo || next < hi {
					t.Errorf("%q repeated: the matcher of %q at byte %d read byte %d, %d bytes away; the scan resumes at byte %d", unit, a.c, i-lo, at-lo, at-i, next-lo)
					break
				}
			}
		}
		if checked == 0 {
			t.Errorf("%q repeated: no anchor checked", unit)
		}
	}
}

// call runs at(text, i) and reports the address of a faulting read.
func call(at func([]byte, int) int, text []byte, i int) (addr uintptr, faulted bool) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(interface{ Addr() uintptr })
			if !ok {
				panic(r)
			}
			addr, faulted = f.Addr(), true
		}
	}()
	at(text, i)
	return 0, false
}
