// Owns the fast `agentteam exec` entry: no daemon or server code is imported here.
console.log('exec');
