package proc

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/service"
)

func TestChildEnvOnWindows(t *testing.T) {
	environ := []string{"Path=C:\\Windows", "SystemRoot=C:\\Windows", "ComSpec=C:\\Windows\\cmd.exe", "APPDATA=x", "GH_TOKEN=secret"}
	env, withheld := Env(environ, service.Service{}, map[string]string{"A": "1"}, "windows")
	if got := strings.Join(env, ";"); got != `Path=C:\Windows;SystemRoot=C:\Windows;ComSpec=C:\Windows\cmd.exe;APPDATA=x;A=1` {
		t.Errorf("env = %s", got)
	}
	if strings.Join(withheld, ",") != "GH_TOKEN" {
		t.Errorf("withheld = %v", withheld)
	}
	if _, withheld := Env(environ, service.Service{}, nil, "linux"); strings.Join(withheld, ",") != "APPDATA,ComSpec,GH_TOKEN,Path,SystemRoot" {
		t.Errorf("on linux the Windows names are not minimal: %v", withheld)
	}
}
