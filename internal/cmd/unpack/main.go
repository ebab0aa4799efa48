// Command unpack builds a fixture repository from a txtar file under
// testdata/repos/ (used by install.sh --demo and the benchmarks):
//
//	go run ./internal/cmd/unpack ARCHIVE DIR
package main

import (
	"fmt"
	"os"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: unpack ARCHIVE DIR")
		os.Exit(2)
	}
	archive, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "unpack:", err)
		os.Exit(1)
	}
	home, err := os.MkdirTemp("", "fixture-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "unpack:", err)
		os.Exit(1)
	}
	err = fixture.Repo(archive, os.Args[2], home)
	os.RemoveAll(home)
	if err != nil {
		fmt.Fprintln(os.Stderr, "unpack:", err)
		os.Exit(1)
	}
}
