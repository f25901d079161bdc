package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Discover sends server/discover with meta as its _meta and reports
// whether the server lists version among its supportedVersions, or why
// not. An UnsupportedProtocolVersion error (-32022) whose supported
// versions include version is answered with one more try, as the
// revision's negotiation asks.
func Discover(ctx context.Context, tr transport.Interface, version string, meta map[string]any) (bool, error) {
	for range 2 {
		resp, err := tr.SendRequest(ctx, NewModernRequest(string(mcp.MethodServerDiscover), map[string]any{"_meta": meta}))
		if err != nil {
			return false, err
		}
		if resp.Error != nil {
			err := resp.Error.AsError()
			var refused mcp.UnsupportedProtocolVersionError
			if !errors.As(err, &refused) || !slices.Contains(refused.Supported, version) {
				return false, err
			}
			continue
		}
		var found struct {
			SupportedVersions []string `json:"supportedVersions"`
		}
		if err := json.Unmarshal(resp.Result, &found); err != nil {
			return false, err
		}
		if !slices.Contains(found.SupportedVersions, version) {
			return false, fmt.Errorf("it speaks %s", strings.Join(found.SupportedVersions, ", "))
		}
		return true, nil
	}
	return false, fmt.Errorf("it refused %s twice", version)
}
