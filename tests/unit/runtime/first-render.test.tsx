// @vitest-environment happy-dom
/**
 * A reloaded screen draws with its data in its first render (issue 13): a lazy part whose code has arrived draws in
 * its parent's render (eagerLazy), and a read whose answer is already here fills swr's cache before the hook that
 * reads it renders (useFirstAnswer), without reading it again on mount; without an answer, reads are as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, useState, type ReactElement } from 'react';
import useSWR, { SWRConfig } from 'swr';
import { eagerLazy } from '../../../src/runtime/react/eagerLazy.js';
import { loadOnce } from '../../../src/shared/loadOnce.js';
import { useFirstAnswer } from '../../../src/runtime/react/useFirstAnswer.js';

afterEach(() => cleanup());

describe('eagerLazy', () => {
  it('draws a part whose code has arrived in the same render, without its fallback', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      loads++;
      return { default: ({ who }: { who: string }) => <span>hello {who}</span> };
    });
    await load();
    const Part = eagerLazy(load);
    render(
      <Suspense fallback={<span>loading</span>}>
        <Part who="there" />
      </Suspense>,
    );
    // synchronously after render: no fallback was ever committed
    expect(screen.getByText('hello there')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    expect(loads).toBe(1);
  });

  it('suspends as lazy() does while the code is on its way; one load for every caller; a failed load is tried again', async () => {
    let release!: () => void;
    let fail = true;
    const load = loadOnce(() => {
      if (fail) return Promise.reject(new Error('offline'));
      return new Promise<{ default: () => ReactElement }>((ok) => (release = () => ok({ default: () => <span>arrived</span> })));
    });
    await expect(load()).rejects.toThrow('offline');
    fail = false;
    const a = load();
    expect(load()).toBe(a);
    const Part = eagerLazy(load);
    render(
      <Suspense fallback={<span>loading</span>}>
        <Part />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => release());
    expect(await screen.findByText('arrived')).toBeTruthy();
    expect(load.loaded).toBeDefined();
  });
});

describe('useFirstAnswer', () => {
  function Reader({ answer, reads, id }: { answer: () => unknown; reads: string[]; id: string }) {
    const key = ['thing', id];
    const first = useFirstAnswer(key, answer);
    const { data } = useSWR(key, async ([, k]: string[]) => {
      reads.push(k);
      return `read ${k}`;
    }, { revalidateIfStale: true, ...first });
    return <span>{data ?? 'empty'}</span>;
  }
  const fresh = (ui: ReactElement) => render(<SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{ui}</SWRConfig>);

  it('draws the answer in the first render and does not read it again on mount', async () => {
    const reads: string[] = [];
    let taken = 0;
    fresh(<Reader id="a" reads={reads} answer={() => (taken++, 'answered a')} />);
    expect(screen.getByText('answered a')).toBeTruthy();
    await act(async () => new Promise((r) => setTimeout(r, 30)));
    expect(screen.getByText('answered a')).toBeTruthy();
    expect(reads).toEqual([]);
    expect(taken).toBe(1);
  });

  it('without an answer, the hook reads as usual; a later key reads as usual too', async () => {
    const reads: string[] = [];
    function Switching() {
      const [id, setId] = useState('b');
      return (
        <>
          <button onClick={() => setId('c')}>next</button>
          <Reader id={id} reads={reads} answer={() => (id === 'b' ? 'answered b' : undefined)} />
        </>
      );
    }
    fresh(<Switching />);
    expect(screen.getByText('answered b')).toBeTruthy();
    await act(async () => screen.getByText('next').click());
    expect(await screen.findByText('read c')).toBeTruthy();
    expect(reads).toEqual(['c']);
  });
});
