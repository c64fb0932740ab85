#!/bin/sh
# The log store's figures beside their references, in one run:
#   LogStore.append against sqlite3's .import of the same rows as CSV (target: within 2x),
#   sealing, reading, and the message search index (build speed, growth, a rare needle vs LIKE).
# Builds a throwaway package in release from the repository's sources; Package.swift is untouched.
# Usage: Benchmarks/store.sh [records, default 1000000]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources"
cp -R "$repo/Sources/CSQLite" "$repo/Sources/CSQLiteAlloc" "$repo/Sources/DiagModel" "$repo/Sources/DiagStore" "$work/Sources/"
mkdir -p "$work/Sources/StoreBench"
cp "$repo/Benchmarks/StoreBench/main.swift" "$work/Sources/StoreBench/"
cat > "$work/Package.swift" <<'PACKAGE'
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "StoreBench",
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3"),
        .target(name: "DiagModel", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "CSQLiteAlloc"),
        .target(name: "DiagStore", dependencies: ["DiagModel", "CSQLite", "CSQLiteAlloc"]),
        .executableTarget(name: "StoreBench", dependencies: ["DiagModel", "DiagStore"]),
    ],
    swiftLanguageModes: [.v6]
)
PACKAGE
swift build -c release --package-path "$work" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/.build/release/StoreBench" "${1:-1000000}" "$work"
