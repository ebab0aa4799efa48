package gitstore

import (
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkWriteBlob writes new loose blobs (a memory commit's records)
// in a repository unshared and shared with its group: the cost of the
// shared bits per object (an fstat, and an fchmod when the bits differ).
func BenchmarkWriteBlob(b *testing.B) {
	for _, shared := range []string{"", "group"} {
		b.Run("shared="+shared, func(b *testing.B) {
			dir, env := newRepo(b)
			if shared != "" {
				runGit(b, dir, env, "config", "core.sharedRepository", shared)
			}
			r := Repo{TopLevel: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git"), Git: Git{Dir: dir, Env: env}}
			objs, err := OpenObjects(r)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := objs.WriteBlob([]byte("record " + strconv.Itoa(i) + "\n")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
