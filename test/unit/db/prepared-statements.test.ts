import { raw } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { boundStatement, PLANNED_PER_VALUE } from '../../../src/db/prepared-statements.ts';

describe('boundStatement', () => {
  it('numbers the placeholders in order', () => {
    expect(boundStatement('UPDATE t SET a = ? WHERE id = ? AND b = ?', [1, 'x', null])).toBe('UPDATE t SET a = $1 WHERE id = $2 AND b = $3');
  });

  it('binds statements that multiply or count', () => {
    expect(boundStatement(`SELECT count(*) AS n FROM t WHERE tat > now() + ? * interval '1 millisecond'`, [5])).toBe(`SELECT count(*) AS n FROM t WHERE tat > now() + $1 * interval '1 millisecond'`);
  });

  it('leaves statements without parameters to MikroORM', () => {
    expect(boundStatement('SELECT 1', [])).toBeNull();
  });

  it.each([
    ['an array (MikroORM expands it into a list)', 'SELECT * FROM t WHERE id IN (?)', [[1, 2]]],
    ['a buffer', 'INSERT INTO t (b) VALUES (?)', [Buffer.from('x')]],
    ['a raw SQL fragment', 'SELECT ?', [raw('now()')]],
    ['an identifier placeholder', 'SELECT ?? FROM t WHERE a = ?', ['col', 1]],
    ['an escaped question mark', `SELECT data \\? 'k' FROM t WHERE id = ?`, [1]],
    ['fewer placeholders than parameters', 'SELECT ?', [1, 2]],
    ['more placeholders than parameters', 'SELECT ?, ?', [1]],
    ['SELECT *', 'SELECT * FROM card_schedules WHERE card_id = ? FOR UPDATE', ['c']],
    ['a table\'s * among other columns', 'SELECT c.*, s.due FROM cards c JOIN card_schedules s ON s.card_id = c.id WHERE c.id = ?', ['c']],
    ['RETURNING *', 'UPDATE cards SET text = ? WHERE id = ? RETURNING *', ['t', 'c']],
    ['SQL marked to be planned per value', `SELECT id FROM cards WHERE ${PLANNED_PER_VALUE} text LIKE ?`, ['%a%']],
  ])('keeps MikroORM quoting for %s', (_, sql, params) => {
    expect(boundStatement(sql, params as unknown[])).toBeNull();
  });
});
