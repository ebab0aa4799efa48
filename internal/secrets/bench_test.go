package secrets

import (
	"strconv"
	"strings"
	"testing"
)

// proseRecord is an ordinary memory record: front matter, headings, lists,
// links, code spans, snake_case and kebab-case identifiers, hyphenated words.
const proseRecord = `---
id: 2024-06-11-build-cache
tags: [build, ci, go-modules]
created: 2024-06-11T09:42:00Z
---

# Build cache and test-runner notes

The CI pipeline for this repository runs on GitHub Actions (see
https://docs.github.com/en/actions/using-workflows for the syntax). A full
build takes about 4 minutes; most of it is spent in ` + "`go test ./...`" + ` with the
race detector enabled. Caching the module download directory cut the
cold-start time roughly in half.

## What worked

- Use ` + "`actions/cache`" + ` keyed on the hash of go.sum, not on the branch name.
- Keep the test-data fixtures under ` + "`testdata/`" + `; the Go tool ignores them.
- Run ` + "`gofmt -l`" + ` and ` + "`go vet`" + ` before the slow integration tests, so a
  trivial formatting mistake fails in seconds rather than minutes.
- The flaky test ` + "`TestMergeConcurrent_retry`" + ` was a real data race: two
  goroutines wrote to the same map. Fixed by guarding it with a mutex.

## What did not work

1. Sharding the tests across four runners: the per-runner start-up cost
   (checkout, toolchain, cache restore) ate most of the gain.
2. A self-hosted runner: it was faster, but maintaining it was a
   time-consuming side-project nobody wanted to own.
3. Setting GOFLAGS=-mod=vendor. Vendoring made the diff noisy and the
   repository twice as large.

## Conventions

Branch names follow ` + "`feature/<ticket>-short-description`" + `. Commit messages
use the imperative mood ("Add retry to fetch", not "Added retry"). Every
record in this memory store has a stable slug, e.g. #build-cache or
#release-checklist, and links to related records by slug.

> Note: the staging database is reachable only from the VPN. Ask the
> on-call engineer for access; credentials are never written down here.

Useful commands:

    make test-short      # unit tests only, about 40 seconds
    make lint            # golangci-lint with the repo's config
    git log --oneline -20 -- internal/

Related: #ci-runners, #flaky-tests, [Go release notes](https://go.dev/doc/devel/release).
`

func benchInput(n int, secrets ...string) []byte {
	s := strings.Repeat(proseRecord, n/len(proseRecord)+1)[:n]
	// Insert the secrets at spaced-out line starts.
	for i, sec := range secrets {
		at := strings.IndexByte(s[(i+1)*n/(len(secrets)+1):], '\n') + (i+1)*n/(len(secrets)+1) + 1
		s = s[:at] + sec + "\n" + s[at:]
	}
	return []byte(s)
}

func BenchmarkFindClean(b *testing.B) {
	text := benchInput(2048)
	if m := Find(text); len(m) != 0 {
		b.Fatalf("clean text has matches: %v", m)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Find(text)
	}
}

func BenchmarkFindDirty(b *testing.B) {
	text := benchInput(2048,
		"token: "+tokGitHub,
		"AWS_ACCESS_KEY_ID="+tokAWSID,
		"aws_secret_access_key = "+tokAWSSecret,
		"DATABASE_URL=postgres://app:"+tokURLPass+"@db/app",
		"Authorization: Bearer "+tokJWT,
	)
	if m := Find(text); len(m) != 5 {
		b.Fatalf("dirty text: got %d matches: %v", len(m), m)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Find(text)
	}
}

func BenchmarkRedactDirty(b *testing.B) {
	text := benchInput(2048, "token: "+tokGitHub, "key "+tokPrivateKey)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Redact(text)
	}
}

// BenchmarkLint10k approximates the linter's budget: 10,000 records of
// about 2 KB each.
func BenchmarkLint10k(b *testing.B) {
	text := benchInput(2048)
	for b.Loop() {
		for range 10000 {
			Find(text)
		}
	}
}

// BenchmarkFindAdversarial times Find and Redact on 256 KiB of each
// adversarial input (TestBoundedWorkPerAnchor checks that the work per
// anchor is bounded; this shows what it costs): about 0.1 s for the
// slowest, where a quadratic scan takes seconds.
func BenchmarkFindAdversarial(b *testing.B) {
	const size = 1 << 18
	for _, unit := range adversarialUnits() {
		in := []byte(strings.Repeat(unit, size/len(unit)+1)[:size])
		b.Run(strings.Trim(strconv.Quote(unit), `"`), func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				Find(in)
				Redact(in)
			}
		})
	}
}
