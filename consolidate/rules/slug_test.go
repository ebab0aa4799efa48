package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

func TestTopicSlug(t *testing.T) {
	tests := []struct {
		topic string
		want  string
	}{
		{"Use SQLite for storage", "use-sqlite-for-storage"},
		{"  Use   SQLite\tfor storage ", "use-sqlite-for-storage"},
		{"HTTP/2 & gRPC: retries?", "http-2-grpc-retries"},
		{"Crème brûlée café", "creme-brulee-cafe"},
		{"Straße über Ærø", "strasse-uber-aero"},
		{"ＳＱＬｉｔｅ ｖ３", "sqlite-v3"},
		{"--retry--policy--", "retry-policy"},
		// Nothing ASCII: a stable hash of the topic.
		{"キャッシュ戦略", "topic-" + hash8("キャッシュ戦略")},
		{" キャッシュ  戦略 ", "topic-" + hash8("キャッシュ 戦略")},
		// ASCII words and letters that do not fold: the words and the hash,
		// so SQLiteの採用 and SQLiteの廃止 stay apart.
		{"SQLiteの採用", "sqlite-" + hash8("sqliteの採用")},
		{"SQLiteの廃止", "sqlite-" + hash8("sqliteの廃止")},
		{"!!!", ""},
		{"", ""},
		// Cut at a word boundary at 64 characters.
		{strings.Repeat("alpha ", 20), strings.TrimSuffix(strings.Repeat("alpha-", 10), "-")},
		{strings.Repeat("x", 100), strings.Repeat("x", 64)},
		{strings.Repeat("word ", 20) + "の", strings.TrimSuffix(strings.Repeat("word-", 11), "-") + "-" + hash8(strings.TrimSpace(strings.Repeat("word ", 20))+" の")},
	}
	for _, tt := range tests {
		got := topicSlug(tt.topic)
		if got != tt.want {
			t.Errorf("topicSlug(%q) = %q, want %q", tt.topic, got, tt.want)
		}
		if got != "" {
			if err := record.ValidateSlug(got); err != nil {
				t.Errorf("topicSlug(%q) = %q: %v", tt.topic, got, err)
			}
		}
	}
}

// TestSameTopic: near-identical slugs are the same words in any order,
// case or number, filler words left out; nothing else.
func TestSameTopic(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"retry-policy", "retry-policies", true},
		{"retry-policy", "policy-for-the-retry", true},
		{"use-sqlite", "use-sqlite", true},
		{"cache-keys", "cache-key", true},
		{"class-names", "class-name", true},
		{"retry-policy", "retry-polcy", false}, // a typo is not an equivalence
		{"api-v1", "api-v2", false},
		{"use-python-3-11", "use-python-3-12", false},
		{"the", "a", false}, // nothing but filler: only the slug itself
		{"export-orders-as-csv", "export-the-orders-to-csv", true},
	}
	for _, tt := range tests {
		ka, kb := topicKey(tt.a), topicKey(tt.b)
		if got := ka != "" && ka == kb; got != tt.same {
			t.Errorf("topicKey(%q)=%q, topicKey(%q)=%q: same = %v, want %v", tt.a, ka, tt.b, kb, got, tt.same)
		}
	}
}

func hash8(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:8]
}
