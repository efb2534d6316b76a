#!/bin/sh
# A stand-in for claude 2.1.328 (-p --output-format stream-json --verbose): prints
# stream-json-tool-run.ndjson (beside it, named by STREAM) with the working folder, HOME, its
# ~/.claude/projects/ form, and the key and token of the environment in it, and on stderr the
# header an API client would log with the OAuth token; exits 0.
if [ "$1" = "--version" ]; then echo "2.1.328 (Claude Code)"; exit 0; fi
mangled=$(printf '%s' "$PWD" | tr '/.' '--')
sed -e "s|@CWD@|$PWD|g" -e "s|@HOME@|$HOME|g" -e "s|@MANGLED@|$mangled|g" \
    -e "s|@KEY@|$ANTHROPIC_API_KEY|g" "$STREAM"
printf 'debug: POST /v1/messages Authorization: Bearer %s\n' "$CLAUDE_CODE_OAUTH_TOKEN" >&2
