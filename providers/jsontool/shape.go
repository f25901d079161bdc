package jsontool

import (
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// DecodeTyped reads the shape most tools share: {type, command, args, env}
// for stdio and {type, url, headers} for remote servers. Without a type, a
// url and no command means http, anything else stdio. Streamable HTTP under
// its other names is http.
func DecodeTyped(f *Fields, e *provider.Entry) {
	switch typ := f.Text("type"); typ {
	case "":
		e.Transport = service.Stdio
		if f.Has("url") && !f.Has("command") {
			e.Transport = service.HTTP
		}
	case "streamable-http", "streamableHttp", "streamable_http":
		e.Transport = service.HTTP
	default:
		e.Transport = typ
	}
	f.Stdio(e, "env")
	f.Remote(e, "url")
}

// EncodeTyped writes the shape DecodeTyped reads, with the URL under
// urlKey and, when typed, the transport under "type". It refuses what the
// shape cannot hold: a working directory, tool lists, a disabled state, a
// transport other than stdio, http and sse.
func EncodeTyped(e provider.Entry, c *Encoder, typed bool, urlKey string) Object {
	c.RefuseUnlisted(e, false, false, false)
	var o Object
	if typed {
		o.Add("type", e.Transport)
	}
	switch e.Transport {
	case service.Stdio:
		c.Stdio(&o, e, "env")
	case service.HTTP, service.SSE:
		c.Remote(&o, e, urlKey)
	default:
		c.Refuse(true, "transport "+e.Transport)
	}
	return o
}
