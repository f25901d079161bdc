package proc

import "syscall"

// setParentDeathSignal has the kernel kill the child if the hub dies without
// stopping it (a crash or SIGKILL), so no child outlives the hub.
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
