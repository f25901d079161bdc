package secret

import "testing"

func TestLooksSecret(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "GITHUB_PERSONAL_ACCESS_TOKEN": true, "OPENAI_API_KEY": true, "apiKey": true,
		"x-api-key": true, "DB_PASSWORD": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_ACCESS_KEY_ID": true,
		"GH_PAT": true, "Authorization-Bearer": true, "client_credentials": true, "APIKEY": true,
		"PATH": false, "MONKEY": false, "KEYBOARD_LAYOUT": false, "HOME": false, "SSH_KEY_PATH": false,
		"TOKENIZER": false, "PATTERN": false, "": false, "LOG_LEVEL": false,
	} {
		if got := LooksSecret(name); got != want {
			t.Errorf("LooksSecret(%q) = %v, want %v", name, got, want)
		}
	}
}
