// Stand-in for the "server-only" guard package under vitest (plain node, no bundler).
export {};
