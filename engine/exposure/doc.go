// Package exposure holds the rules that decide what an endpoint of the hub
// lists, shared by the hub (which serves it) and by plan, scan and
// `chronicle tools` (which estimate what a tool will see, from the catalogue
// cache, without the tokenizer):
//
//   - scope: global services everywhere, a project's services under its
//     folder (the deepest match wins);
//   - policy: disabled_tools and enabled_tools globs over a service's own
//     tool names;
//   - profiles: a toolset by services and globs over <service>__<tool>
//     (the full name, before the hub shortens any);
//   - exposure: "all" lists every offered tool; "search" lists the three
//     meta-tools and the tools `always` matches; "auto" is search above
//     search_threshold tokens and all again below 80 % of it (Decide).
package exposure
