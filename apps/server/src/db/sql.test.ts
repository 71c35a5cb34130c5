import { describe, expect, it } from 'vitest';
import { withAlongside } from './sql.js';

describe('withAlongside', () => {
  it('returns main unchanged when nothing goes beside it', () => {
    const main = { text: 'SELECT $1', params: [1] };
    expect(withAlongside(main, [])).toBe(main);
  });

  it('runs the parts as WITH queries before main, their parameters numbered after main’s', () => {
    const joined = withAlongside({ text: 'UPDATE t SET a = $1 WHERE id = $2', params: ['a', 'id'] }, [
      { text: 'INSERT INTO u (x, y) VALUES ($1, $2)', params: ['x', 'y'] },
      { text: 'DELETE FROM v WHERE k = $1 OR j = $1', params: ['k'] },
    ]);
    expect(joined.text).toBe(
      'WITH alongside_0 AS (INSERT INTO u (x, y) VALUES ($3, $4)), alongside_1 AS (DELETE FROM v WHERE k = $5 OR j = $5) ' +
        'UPDATE t SET a = $1 WHERE id = $2',
    );
    expect(joined.params).toEqual(['a', 'id', 'x', 'y', 'k']);
  });

  it('joins main’s own WITH list; $10 is the tenth parameter, not the first', () => {
    const params = Array.from({ length: 10 }, (_, i) => i + 1);
    const joined = withAlongside({ text: '  WITH s AS (INSERT INTO s VALUES ($1)) SELECT $2', params: [0, 0] }, [
      { text: 'INSERT INTO w VALUES ($1, $10)', params },
    ]);
    expect(joined.text).toBe('WITH alongside_0 AS (INSERT INTO w VALUES ($3, $12)), s AS (INSERT INTO s VALUES ($1)) SELECT $2');
    expect(joined.params).toHaveLength(12);
  });

  it('names the parts apart when a joined statement is joined again', () => {
    const once = withAlongside({ text: 'SELECT 1', params: [] }, [{ text: 'DELETE FROM a WHERE k = $1', params: ['a'] }]);
    const twice = withAlongside(once, [{ text: 'DELETE FROM b WHERE k = $1', params: ['b'] }]);
    expect(twice.text).toBe('WITH alongside_1 AS (DELETE FROM b WHERE k = $2), alongside_0 AS (DELETE FROM a WHERE k = $1) SELECT 1');
    expect(twice.params).toEqual(['a', 'b']);
  });

  it('keeps RECURSIVE first, where PostgreSQL wants it', () => {
    const joined = withAlongside({ text: 'WITH RECURSIVE r AS (SELECT 1) SELECT 1', params: [] }, [{ text: 'DELETE FROM w', params: [] }]);
    expect(joined.text).toBe('WITH RECURSIVE alongside_0 AS (DELETE FROM w), r AS (SELECT 1) SELECT 1');
  });
});
