// Package secret owns chronicle's secret references: the values written in
// HCL as secret("env:NAME") or secret("file:PATH").
//
// A reference is never resolved while a configuration is loaded, planned or
// written: the model keeps a Value, a string template whose parts are literal
// text and references. Only the few places where chronicle itself must use a
// secret (the hub launching an upstream, git authentication, the Chronova key)
// call Resolve, and they keep the result in memory.
package secret
