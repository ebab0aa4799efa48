package main

import "strings"

// The vocabulary of the generated prose. Every word is lowercase ASCII letters
// only, so slugs built from these words match ^[a-z0-9]+(-[a-z0-9]+)*$.
// Together with the fixed phrases and function words in the templates this
// is roughly 500 distinct words.

var nouns = strings.Fields(`
build test cache retry timeout config deploy error service server client
request response queue worker job pipeline branch commit merge release
version module package dependency library binary artifact image container
cluster node volume database table index query schema migration transaction
lock mutex channel goroutine thread process signal handler endpoint route
middleware session header payload field record slug file directory path log
metric trace span alert dashboard budget threshold limit quota rate latency
throughput memory heap buffer stream reader writer parser lexer encoder
decoder format template snapshot backup restore checkpoint pointer offset
range window batch chunk page cursor iterator callback hook plugin extension
adapter driver provider model prompt agent tool command flag option setting
environment variable profile benchmark fixture harness suite assertion
coverage regression bug patch fix change diff review reviewer owner team
user operator maintainer contributor document guide note summary decision
discussion proposal plan milestone sprint deadline estimate incident outage
rollback rollout canary feature toggle permission role policy rule fact term
convention style linter formatter compiler toolchain runtime kernel network
socket port host address proxy gateway domain region zone storage bucket
object blob tree ref tag remote origin upstream worktree stash hash checksum
digest scheduler timer clock context cancellation shutdown startup warmup
probe health readiness heartbeat lease election leader follower replica
shard partition consumer producer topic message event journal ledger
counter histogram gauge sample percentile median cost frontmatter heading
section paragraph bullet excerpt search match pattern filter order backlog
workflow staging consolidation extract overlay trailer hunk conflict
encoding locale charset timezone quorum backoff jitter deduplication
manifest lockfile vendor mirror registry checksum sandbox fallback
`)

var verbs = strings.Fields(`
build test cache retry deploy configure validate parse render merge rebase
commit push pull fetch clone install upgrade pin bump release tag revert
review approve reject document measure profile benchmark trace log monitor
throttle limit batch stream flush sync lock unlock acquire schedule cancel
drain restart reload refresh invalidate evict expire compress encode decode
serialize split join sort filter index query migrate backfill rewrite
refactor simplify inline extract consolidate dedupe trim drop keep move
rename replace wrap unwrap check verify enforce skip ignore handle report
surface expose hide guard recover block wait poll notify emit record read
write scan load store persist prune archive export import generate compile
link ship stage unstage lint format annotate tune adjust raise lower reduce
increase avoid prefer require allow deny support track reuse share isolate
mock stub seed warm
`)

var adjectives = strings.Fields(`
stale flaky slow fast large small stable unstable atomic durable idempotent
deterministic concurrent parallel serial local remote shared private public
internal external optional required default explicit implicit strict lenient
verbose quiet minimal compact incremental partial full empty nested flat
linear exponential bounded unbounded cached cold warm hot readonly mutable
immutable transient permanent legacy current previous upstream downstream
experimental deprecated noisy clean dirty broken healthy degraded expensive
cheap safe unsafe consistent eventual synchronous asynchronous lazy eager
graceful abrupt orphaned dangling duplicate unique sorted random fixed
dynamic static global scoped canonical structured plain temporary
`)

// phrases are adverbial tails; none contains a colon or a hash sign.
var phrases = strings.Fields(`
on_every_push after_the_release during_the_nightly_build before_the_merge
in_the_staging_environment when_the_cache_is_cold under_heavy_load for_now
by_default in_most_cases in_the_next_sprint since_the_last_outage
on_the_main_branch in_continuous_integration on_developer_machines
at_startup during_shutdown behind_a_feature_toggle in_production
for_large_repositories on_slow_disks across_all_services per_request
once_per_run in_the_background on_the_hot_path with_a_short_timeout
after_three_retries without_a_network before_each_test
`)

var numbers = strings.Fields(`
3 5 10 30s 500ms 2m 64 128 256 1024 100ms 15s 1h 8 50 200 4096 0.5 90s 12
`)

var sectionHeadings = map[string][]string{
	"summary":  {"Overview", "Architecture", "Conventions", "Current focus", "Open questions", "Glossary"},
	"decision": {"Context", "Options", "Decision", "Rationale", "Consequences", "Follow-up"},
	"request":  {"Request", "Scope", "Acceptance criteria", "Constraints", "Notes", "Status"},
	"knowledge": {
		"Summary", "Details", "Steps", "Example", "Caveats", "Background", "When to use it",
	},
}

var knowledgeKinds = []string{"rule", "fact", "howto", "term", "policy"}

// forbidden substrings: anything that a secret scanner could read as a
// credential. Generated text containing one of these is regenerated.
var forbidden = []string{"sk-", "ghp_", "AKIA", "-----BEGIN", "eyJ"}

func looksSecret(s string) bool {
	for _, f := range forbidden {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}
