// Package skillhub is the Skills Hub view of the central store: every
// central skill with its link status in each tool's skills folder, where it
// came from, and the tags and rating a person gave it.
//
// Tags and ratings are chronicle's own local metadata, kept in
// ~/.chronicle/skills-meta.json and never inside a skill's folder (so tagging
// changes no skill, takes no snapshot and makes no drift) nor in state.json
// (so it never makes a saved plan stale or reloads a hub). Its writers hold
// the state lock (docs/locks.md). The same listing is what `chronicle skills
// list --json` prints and what the hub serves at /api/skills.
package skillhub
