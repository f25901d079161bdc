package relay

import (
	"sort"
	"sync"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/mark3labs/mcp-go/mcp"
)

// The tasks the hub handed to its clients (decision 0211): each upstream
// task made for a client's call is known by the service and the
// upstream's id, and goes back to the client session that made it under
// the hub's handle — its status notifications, and tasks/list.

// A taskRoute is one such task: whose it is and its handle.
type taskRoute struct {
	session, handle string
	seq             int64
}

// taskRoutes are the tasks the hub handed out, by service and upstream id.
type taskRoutes struct {
	mu   sync.Mutex
	seq  int64
	byID map[[2]string]taskRoute
}

// RouteTask records that the upstream task id of service was handed to
// the session sid under handle.
func (p *PassThrough) RouteTask(service, id, sid, handle string) {
	r := &p.tasks
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byID == nil {
		r.byID = map[[2]string]taskRoute{}
	}
	r.seq++
	r.byID[[2]string{service, id}] = taskRoute{session: sid, handle: handle, seq: r.seq}
}

// TasksOf returns up to n of the handles the session sid was given, oldest
// first, from the one after the position after (0: from the first); next
// is the position to go on after them, 0 when none is left.
func (p *PassThrough) TasksOf(sid string, after int64, n int) (handles []string, next int64) {
	r := &p.tasks
	r.mu.Lock()
	var routes []taskRoute
	for _, t := range r.byID {
		if t.session == sid && t.seq > after {
			routes = append(routes, t)
		}
	}
	r.mu.Unlock()
	sort.Slice(routes, func(i, j int) bool { return routes[i].seq < routes[j].seq })
	if len(routes) > n {
		routes, next = routes[:n], routes[n-1].seq
	}
	for _, t := range routes {
		handles = append(handles, t.handle)
	}
	return handles, next
}

// dropTasks forgets the tasks of a session that ended.
func (p *PassThrough) dropTasks(sid string) {
	r := &p.tasks
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, t := range r.byID {
		if t.session == sid {
			delete(r.byID, k)
		}
	}
}

// taskStatus passes an upstream's notifications/tasks/status of a task
// handed to a client to that client alone, with the hub's handle in place
// of the upstream's id; the status of any other task goes nowhere.
func (p *PassThrough) taskStatus(service string, params map[string]any) {
	id, _ := params["taskId"].(string)
	r := &p.tasks
	r.mu.Lock()
	t, ok := r.byID[[2]string{service, id}]
	r.mu.Unlock()
	if !ok {
		return
	}
	params["taskId"] = t.handle
	method := string(mcp.MethodNotificationTasksStatus)
	p.recordForward(t.session, method, params)
	if t.session == session.StdioID && p.NotifyStdio(method, params) {
		return
	}
	_ = p.Server.SendNotificationToSpecificClient(t.session, method, params)
}
