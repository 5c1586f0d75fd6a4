@echo off
rem The hosting provider plugin on Windows, where Pulumi runs this file: node on the one-file
rem plugin beside it (scripts/plugin-bundle.js).
node "%~dp0pulumi-resource-hosting" %*
