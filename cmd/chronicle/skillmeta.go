package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skillhub"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// skillsListCommand is `skills list`: every central skill with its link
// status per tool, tags and rating — with --json, the array the hub serves
// at GET /api/skills.
func (a *app) skillsListCommand() *cobra.Command {
	var (
		asJSON bool
		tag    string
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the central skills with their links, tags and rating",
		Long: `skills list shows every skill of the central store (~/.chronicle/skills) with
what each tool's skills folder has under its name:

  linked     a link to the central copy       copied     chronicle's tracked copy
  drift      a tracked copy changed since     directory  a real folder chronicle does not track
  file       a regular file                   dangling   a link to nothing
  foreign    a link to somewhere else         none       nothing

Project-level folders are listed apart. Tags and ratings are local metadata
(skills tag, skills rate). --json prints the array GET /api/skills answers.`,
		Example: `  chronicle skills list
  chronicle skills list --tag review
  chronicle skills list --json | jq '.[] | select(.rating >= 4) | .name'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, all, err := a.skillList()
			if err != nil {
				return err
			}
			if tag != "" {
				all = slices.DeleteFunc(all, func(s skillhub.Skill) bool { return !slices.Contains(s.Tags, tag) })
			}
			if asJSON {
				return writeJSON(a.stdout, all)
			}
			if len(all) == 0 {
				fmt.Fprintln(a.stdout, "No central skills.")
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SKILL\tRATING\tTAGS\tLINKS")
			for _, s := range all {
				var links []string
				for _, tool := range sortedNames(s.Links) {
					if st := s.Links[tool]; st != skillhub.None {
						links = append(links, tool+":"+st)
					}
				}
				for _, p := range s.Projects {
					links = append(links, p.Tool+"@"+tildePath(m.home, p.Project)+":"+p.Status)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, stars(s.Rating), strings.Join(s.Tags, ","), strings.Join(links, " "))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the skills as JSON (the array of GET /api/skills)")
	cmd.Flags().StringVar(&tag, "tag", "", "list only the skills with this `TAG`")
	return cmd
}

// skillList lists the central skills of this machine.
func (a *app) skillList() (*workspace, []skillhub.Skill, error) {
	m, st, err := a.loadedState()
	if err != nil {
		return nil, nil, err
	}
	all, err := skillhub.List(fsys.OS{}, m.skillHub(st))
	if err != nil {
		return nil, nil, failf("%s", err)
	}
	return m, all, nil
}

func (a *app) skillsTagCommand() *cobra.Command {
	var (
		remove      bool
		lockTimeout time.Duration
	)
	cmd := &cobra.Command{
		Use:   "tag NAME TAG...",
		Short: "Tag a central skill (local metadata)",
		Long: `skills tag adds tags to a central skill (--remove removes them). Tags are
1 to 32 characters of a-z, 0-9 and -. They are kept in ~/.chronicle/skills-meta.json:
tagging changes no skill, takes no snapshot and makes no drift.`,
		Example: "  chronicle skills tag code-review go review\n  chronicle skills tag code-review go --remove",
		Args:    cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, tags := args[0], args[1:]
			for _, t := range tags {
				if err := skillhub.CheckTag(t); err != nil {
					return failf("%s", err)
				}
			}
			return a.editSkillMeta("skills tag", lockTimeout, name, func(m *skillhub.Meta) error {
				if remove {
					m.Tags = slices.DeleteFunc(m.Tags, func(t string) bool { return slices.Contains(tags, t) })
				} else {
					m.Tags = append(m.Tags, tags...)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&remove, "remove", false, "remove the tags instead of adding them")
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

func (a *app) skillsRateCommand() *cobra.Command {
	var lockTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "rate NAME N",
		Short: "Rate a central skill from 0 (unrated) to 5 (local metadata)",
		Long: `skills rate gives a central skill a rating from 1 to 5 stars; 0 clears it. The
rating is kept in ~/.chronicle/skills-meta.json and changes no skill.`,
		Example: "  chronicle skills rate code-review 5\n  chronicle skills rate code-review 0",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := strconv.Atoi(args[1])
			if err == nil {
				err = skillhub.CheckRating(n)
			} else {
				err = fmt.Errorf("%q is not a valid rating: ratings are 0 (unrated) to %d", args[1], skillhub.MaxRating)
			}
			if err != nil {
				return failf("%s", err)
			}
			return a.editSkillMeta("skills rate", lockTimeout, args[0], func(m *skillhub.Meta) error {
				m.Rating = n
				return nil
			})
		},
	}
	lockTimeoutFlag(cmd, &lockTimeout)
	return cmd
}

// editSkillMeta changes a central skill's metadata under the state lock,
// waiting for it up to timeout, and prints the result.
func (a *app) editSkillMeta(op string, timeout time.Duration, name string, edit func(*skillhub.Meta) error) error {
	return a.locked(op, timeout, func(m *workspace) error {
		meta, err := skillhub.UpdateMeta(fsys.OS{}, m.chronicleHome, name, edit)
		if errors.Is(err, skillhub.ErrNoSkill) {
			return failf("no central skill named %s: chronicle skills list shows them", name)
		}
		if err != nil {
			return failf("%s", err)
		}
		fmt.Fprintf(a.stdout, "%s: rating %s, tags [%s]\n", name, stars(meta.Rating), strings.Join(meta.Tags, ", "))
		return nil
	})
}

// stars shows a rating: ★★★☆☆, or "-" when unrated.
func stars(n int) string {
	if n <= 0 {
		return "-"
	}
	return strings.Repeat("★", n) + strings.Repeat("☆", skillhub.MaxRating-n)
}

// skillHub is the machine as the Skills Hub lists it.
func (m *workspace) skillHub(st *state.State) skillhub.Machine {
	return skillhub.Machine{ChronicleHome: m.chronicleHome, Env: m.env, Tools: m.tools, State: st}
}
