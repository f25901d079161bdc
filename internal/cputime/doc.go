// Package cputime reads the CPU time the process has used, for benchmarks
// that report it per operation: on a machine shared with other work it is
// steadier than wall time (bench/README.md).
package cputime
