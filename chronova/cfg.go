package chronova

import "strings"

// parseCfg reads the INI-style settings files used by Chronova and WakaTime
// (~/.chronova.cfg, ~/.wakatime.cfg) and returns their key/value pairs.
//
// The files are read the way the reference tools read them for the keys the
// bridge needs: section headers ("[settings]") are ignored, so a key in any
// section counts; lines starting with '#' or ';' are comments; a key and its
// value are separated by the first '=' or ':'; keys are case-insensitive and
// returned in lower case; surrounding blanks are trimmed; and when a key
// appears more than once the last one wins. Lines without a separator or with
// an empty key are skipped rather than reported, because these files belong
// to other tools and a line the bridge does not understand is not its concern.
func parseCfg(content string) map[string]string {
	content = strings.TrimPrefix(content, "\ufeff")
	values := make(map[string]string)
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' {
			continue
		}
		sep := strings.IndexAny(line, "=:")
		if sep < 0 {
			continue
		}
		key := strings.ToLower(strings.TrimSpace(line[:sep]))
		if key == "" {
			continue
		}
		values[key] = strings.TrimSpace(line[sep+1:])
	}
	return values
}
