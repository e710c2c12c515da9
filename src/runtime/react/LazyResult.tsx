/**
 * antd's Result from its own chunk (issue 13): its status pictures (404, 403, 500) are some 10 kB of code, and a
 * page shows a Result only when something is missing or has failed. Nothing shows for the moment it loads; if it
 * cannot load (offline: often why there is an error to show), the same texts and buttons show plainly.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import type { ResultProps } from 'antd';

function PlainResult({ title, subTitle, extra, className, style, ...rest }: ResultProps) {
  return (
    <div className={className} style={{ padding: '48px 32px', textAlign: 'center', ...style }} data-testid={(rest as Record<string, string>)['data-testid']}>
      {title && <div style={{ fontSize: 24, marginBottom: 8 }}>{title}</div>}
      {subTitle && <div style={{ opacity: 0.65 }}>{subTitle}</div>}
      {extra && <div style={{ marginTop: 24 }}>{extra}</div>}
    </div>
  );
}

const AntResult = lazy((): Promise<{ default: ComponentType<ResultProps> }> => import('antd/es/result').catch(() => ({ default: PlainResult })));

export function Result(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <AntResult {...props} />
    </Suspense>
  );
}
