// Package held holds the calls of 2026-07-28 clients to session-era
// upstreams while their clients answer what the upstream asked (decision
// 0230). A session-era upstream asks its client mid-call (elicitation,
// sampling, roots) and waits; a 2026-07-28 client holds no stream it could
// be asked on, and is instead answered input_required and retries. A Call
// keeps the upstream's request open across the client's rounds: each
// round's answer is the call's result or the questions the upstream has
// meanwhile, with a requestState of the hub's, sealed (hub/seal), that names
// the call and is good for one retry; a call nobody resumes within its bound
// is cancelled.
package held
