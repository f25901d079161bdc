package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/skillhub"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

func (h *API) Skills(w http.ResponseWriter, r *http.Request) {
	m, ok := h.skillMachine()
	if !ok {
		wire.WriteError(w, http.StatusServiceUnavailable, "this hub was started without the machine's tools: no skills")
		return
	}
	all, err := skillhub.List(fsys.OS{}, m)
	if err != nil {
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h.writeJSON(w, all)
}

// withSkill answers 404 for a name that is not a central skill, and passes
// the skill's machine on otherwise.
func (h *API) withSkill(next func(http.ResponseWriter, *http.Request, skillhub.Machine, skillhub.Skill)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		m, ok := h.skillMachine()
		if !ok {
			wire.WriteError(w, http.StatusServiceUnavailable, "this hub was started without the machine's tools: no skills")
			return
		}
		name := r.PathValue("name")
		s, err := skillhub.Get(fsys.OS{}, m, name)
		if errors.Is(err, skillhub.ErrNoSkill) {
			wire.WriteError(w, http.StatusNotFound, "no central skill named "+name)
			return
		}
		if err != nil {
			h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
			return
		}
		next(w, r, m, s)
	}
}

func (h *API) skill(w http.ResponseWriter, r *http.Request, _ skillhub.Machine, s skillhub.Skill) {
	h.writeJSON(w, s)
}

// snapshots answers as `chronicle skills snapshots NAME --json`: the
// same ids, oldest first.
func (h *API) snapshots(w http.ResponseWriter, r *http.Request, m skillhub.Machine, s skillhub.Skill) {
	snaps, err := snapshot.List(fsys.OS{}, snapshot.Dir(m.ChronicleHome), s.Name)
	if err != nil {
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if snaps == nil {
		snaps = []snapshot.Snapshot{}
	}
	h.writeJSON(w, snaps)
}

// restore is POST /api/skills/NAME/restore {"id"}: as `chronicle skills
// restore`, under the state lock taken without waiting.
func (h *API) restore(w http.ResponseWriter, r *http.Request, m skillhub.Machine, s skillhub.Skill) {
	var in struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.ID == "" {
		wire.WriteError(w, http.StatusBadRequest, `expected {"id": "<snapshot id>"}`)
		return
	}
	l, ok := h.tryStateLock(w, m, "skills restore (console)")
	if !ok {
		return
	}
	err := snapshot.Restore(fsys.OS{}, snapshot.Dir(m.ChronicleHome), s.Name, in.ID, skillhub.StoreDir(m.ChronicleHome))
	l.Release()
	switch {
	case errors.Is(err, snapshot.ErrNoSnapshot):
		wire.WriteError(w, http.StatusNotFound, err.Error())
		return
	case err != nil:
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h.inspector.Note("", "skill "+s.Name+" restored from snapshot "+in.ID+" from the console")
	h.writeSkill(w, m, s.Name)
}

// meta is PUT /api/skills/NAME/meta {"tags": [...], "rating": n}: both
// replaced, under the state lock taken without waiting.
func (h *API) meta(w http.ResponseWriter, r *http.Request, m skillhub.Machine, s skillhub.Skill) {
	var in struct {
		Tags   []string `json:"tags"`
		Rating *int     `json:"rating"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Rating == nil {
		wire.WriteError(w, http.StatusBadRequest, `expected {"tags": ["..."], "rating": 0-5}`)
		return
	}
	meta := skillhub.Meta{Tags: in.Tags, Rating: *in.Rating}
	if err := meta.Check(); err != nil {
		wire.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	l, ok := h.tryStateLock(w, m, "skills meta (console)")
	if !ok {
		return
	}
	_, err := skillhub.UpdateMeta(fsys.OS{}, m.ChronicleHome, s.Name, func(old *skillhub.Meta) error {
		*old = meta
		return nil
	})
	l.Release()
	if err != nil {
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h.writeSkill(w, m, s.Name)
}

// tryStateLock takes the state lock without waiting; when another process
// holds it, it answers 409 with the holder and returns false.
func (h *API) tryStateLock(w http.ResponseWriter, m skillhub.Machine, op string) (*lock.Lock, bool) {
	l, err := lock.Acquire(h.opts.Context, filepath.Join(m.ChronicleHome, "state.lock"), op, 0)
	var held *lock.HeldError
	switch {
	case errors.As(err, &held):
		wire.WriteJSONStatus(w, http.StatusConflict, map[string]any{"error": held.Error(), "holder": held.Holder})
		return nil, false
	case err != nil:
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return nil, false
	}
	return l, true
}

// writeSkill answers the skill as it is now: a 200 returns the updated
// object.
func (h *API) writeSkill(w http.ResponseWriter, m skillhub.Machine, name string) {
	s, err := skillhub.Get(fsys.OS{}, m, name)
	if err != nil {
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h.writeJSON(w, s)
}

// Skill is GET /api/skills/NAME: one central skill.
func (h *API) Skill(w http.ResponseWriter, r *http.Request) { h.withSkill(h.skill)(w, r) }

// Snapshots is GET /api/skills/NAME/snapshots.
func (h *API) Snapshots(w http.ResponseWriter, r *http.Request) { h.withSkill(h.snapshots)(w, r) }

// Restore is POST /api/skills/NAME/restore.
func (h *API) Restore(w http.ResponseWriter, r *http.Request) { h.withSkill(h.restore)(w, r) }

// Meta is PUT /api/skills/NAME/meta.
func (h *API) Meta(w http.ResponseWriter, r *http.Request) { h.withSkill(h.meta)(w, r) }
