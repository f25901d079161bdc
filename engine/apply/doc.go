// Package apply carries out a plan, exactly as the plan saw it.
//
// Every change that touches the machine records, in Before, what the plan
// saw at its target. Apply's first step for each change — saved or
// interactive plan alike, whatever its kind — is to look at the target
// again through the same code (package observe) and compare: when it is not
// what the plan saw, the change fails with "<address>: <path> changed since
// the plan: …", nothing at that target is touched, and the changes that
// depend on it are skipped (no link to a skill that was not imported; no
// removal of a central skill while a link to it could not be removed). Only
// then does apply dispatch on the change's kind.
//
// Writes to a tool's file are one transaction per file (transaction.go).
// Every change is journalled in the state before anything is done, and
// recorded once done, so a crash at any moment leaves every file as it was
// or as intended, and a state that describes what really happened. Before
// the first write to a file chronicle does not own, its bytes go into a
// backup set; a place taken over by --replace is moved into a kept set,
// never deleted. Everything goes through the filesystem seam (fsys).
package apply
