import { Component, type ReactNode } from 'react';
import Button from 'antd/es/button';
import { Result } from '../../runtime/react/LazyResult.js';
import { i18n } from '../i18n.js';
import { addErrorLog } from '../lib/errorLog.js';

/** Render errors (and chunks that fail or time out) are recorded in the error log and shown as a 500 page. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  componentDidCatch(error: Error, info: { componentStack?: string | null }) {
    addErrorLog(error, (info.componentStack ?? '').slice(0, 500));
  }
  componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Result
        status="500"
        title="500"
        subTitle={i18n.t('error.page.500Text')}
        extra={<Button type="primary" onClick={() => window.location.reload()}>{i18n.t('shell.reload')}</Button>}
      />
    );
  }
}

/** Chunk load time-out (spec: 120 s): a lazy import that takes longer rejects. */
export function withTimeout<T>(load: () => Promise<T>, ms = 120_000): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const id = setTimeout(() => reject(new Error(`chunk load timed out after ${ms} ms`)), ms);
      load().then(
        (m) => {
          clearTimeout(id);
          resolve(m);
        },
        (e) => {
          clearTimeout(id);
          reject(e);
        },
      );
    });
}
