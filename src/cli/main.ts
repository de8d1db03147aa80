// Owns the owner CLI entry (commander). Wired by the foundation work.
console.log('agentteam');
