package hub

import (
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/skillhub"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
)

func (h *Hub) apiSkills(w http.ResponseWriter, r *http.Request) {
	m, ok := h.skillMachine()
	if !ok {
		writeError(w, http.StatusServiceUnavailable, "this hub was started without the machine's tools: no skills")
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
func (h *Hub) withSkill(next func(http.ResponseWriter, *http.Request, skillhub.Machine, skillhub.Skill)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		m, ok := h.skillMachine()
		if !ok {
			writeError(w, http.StatusServiceUnavailable, "this hub was started without the machine's tools: no skills")
			return
		}
		name := r.PathValue("name")
		s, err := skillhub.Get(fsys.OS{}, m, name)
		if errors.Is(err, skillhub.ErrNoSkill) {
			writeError(w, http.StatusNotFound, "no central skill named "+name)
			return
		}
		if err != nil {
			h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
			return
		}
		next(w, r, m, s)
	}
}

func (h *Hub) apiSkill(w http.ResponseWriter, r *http.Request, _ skillhub.Machine, s skillhub.Skill) {
	h.writeJSON(w, s)
}

// apiSnapshots answers as `chronicle skills snapshots NAME --json`: the
// same ids, oldest first.
func (h *Hub) apiSnapshots(w http.ResponseWriter, r *http.Request, m skillhub.Machine, s skillhub.Skill) {
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

// apiRestore is POST /api/skills/NAME/restore {"id"}: as `chronicle skills
// restore`, under the state lock taken without waiting.
func (h *Hub) apiRestore(w http.ResponseWriter, r *http.Request, m skillhub.Machine, s skillhub.Skill) {
	var in struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.ID == "" {
		writeError(w, http.StatusBadRequest, `expected {"id": "<snapshot id>"}`)
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
		writeError(w, http.StatusNotFound, err.Error())
		return
	case err != nil:
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h.inspector.Note("", "skill "+s.Name+" restored from snapshot "+in.ID+" from the console")
	h.writeSkill(w, m, s.Name)
}

// apiMeta is PUT /api/skills/NAME/meta {"tags": [...], "rating": n}: both
// replaced, under the state lock taken without waiting.
func (h *Hub) apiMeta(w http.ResponseWriter, r *http.Request, m skillhub.Machine, s skillhub.Skill) {
	var in struct {
		Tags   []string `json:"tags"`
		Rating *int     `json:"rating"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Rating == nil {
		writeError(w, http.StatusBadRequest, `expected {"tags": ["..."], "rating": 0-5}`)
		return
	}
	meta := skillhub.Meta{Tags: in.Tags, Rating: *in.Rating}
	if err := meta.Check(); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
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
func (h *Hub) tryStateLock(w http.ResponseWriter, m skillhub.Machine, op string) (*lock.Lock, bool) {
	l, err := lock.Acquire(h.ctx, filepath.Join(m.ChronicleHome, "state.lock"), op, 0)
	var held *lock.HeldError
	switch {
	case errors.As(err, &held):
		writeJSONStatus(w, http.StatusConflict, map[string]any{"error": held.Error(), "holder": held.Holder})
		return nil, false
	case err != nil:
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return nil, false
	}
	return l, true
}

// writeSkill answers the skill as it is now: a 200 returns the updated
// object.
func (h *Hub) writeSkill(w http.ResponseWriter, m skillhub.Machine, name string) {
	s, err := skillhub.Get(fsys.OS{}, m, name)
	if err != nil {
		h.writeMaskedError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h.writeJSON(w, s)
}
