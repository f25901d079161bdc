// Package early starts, while the program is still initialising, the
// reading a plan or an apply begins with: the configuration files, parsed,
// and the state file, decoded.
//
// A Go program initialises its packages one after another on one core. In
// chronicle that takes about 7 ms, 4–5 ms of it a dependency's tables
// (santhosh-tekuri/jsonschema, linked through mcp-go's server), while the
// second core has nothing to do; parsing a realistic configuration and
// decoding the state take about as long. This package is initialised
// before that dependency (it does not import it), and its init starts that
// work on a goroutine, guessing from the command line what the command
// will read.
//
// A guess is only ever a head start, never an answer: the command still
// reads every file itself, and takes a result from here only for the same
// file with exactly the same bytes (config.Options.Parsed, Reads.State).
// A wrong guess costs some work of the otherwise idle core, nothing else.
// docs/decisions/0056-early-reads.md.
package early
