# The hub listens on loopback; the token is required by every client anyway.

hub {
  listen = "127.0.0.1:7311"
  token  = secret("env:CHRONICLE_HUB_TOKEN")
}

chronova {
  api_key = secret("env:CHRONOVA_API_KEY")
}
