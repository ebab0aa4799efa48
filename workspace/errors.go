package workspace

import "github.com/yoimem/git-yoimem/gitstore"

// Kind says what kind of problem an *Error is, so that a front end can
// say what to do about it.
type Kind int

const (
	NotRepository   Kind = iota + 1 // the directory is in no git repository
	NoWorkTree                      // a bare repository, or inside .git
	OutsideWorkTree                 // Options.Workspace is not in the working tree
	BadConfigFlag                   // a -c setting that is not KEY=VALUE of a known key (Error.Arg)
	BadConfigValue                  // a configured value its key does not accept
	BadConfigFile                   // .yoi/config cannot be read or does not parse
	BadBranch                       // yoimem.branch or yoimem.baseBranch is no branch name git accepts
	NoYoi                           // the workspace has no .yoi/ (Error.Is gitstore.ErrNoYoi)
)

// Error is a workspace that cannot be opened or used as asked, worded
// for people; Kind says which problem it is.
type Error struct {
	Kind Kind
	Err  error
	Arg  string // BadConfigFlag: the setting as given
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Is makes a NoYoi *Error match gitstore.ErrNoYoi.
func (e *Error) Is(target error) bool { return e.Kind == NoYoi && target == gitstore.ErrNoYoi }
