// Package enginetest builds real machines for the engine's tests: a
// temporary home with the tools' real files and skills folders, the real
// providers, a configuration written in HCL, and plan and apply run over
// the real filesystem (or a recording one). It lives outside engine/ so the
// engine itself never imports a concrete provider; only tests import it.
package enginetest
