// Package task owns the tasks the hub hands to its clients (decisions 0211
// and 0235): the hub's sealed handle of an upstream task, the routing of a
// client's tasks requests to the upstream task a handle names, and the
// translation between the revisions' shapes of a task — the 2025-11-25
// revision's (a nested task, ttl, tasks/result) that the hub's upstreams
// speak, and the 2026-07-28 tasks extension's (io.modelcontextprotocol/tasks,
// SEP-2663: a flat resultType "task", ttlMs, the result inlined in
// tasks/get) that its stateless clients speak.
package task
