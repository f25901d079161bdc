// Package apply carries out a plan. Every change is journalled in the state
// before it is made and recorded after, and the state is saved after each
// one, so a crash at any moment leaves every file as it was or as intended
// and a state that describes what really happened. Before the first write to
// a file chronicle does not own, the file is copied into a backup set; a place
// taken over by --replace is moved into the set, never deleted.
package apply
