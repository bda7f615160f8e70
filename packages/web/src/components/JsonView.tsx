// Pretty JSON in a scrollable, selectable block (Chromium makes scrollers keyboard-focusable itself).
export function JsonView(props: { value: unknown; testId?: string }) {
  return (
    <pre className="json" data-testid={props.testId}>
      {JSON.stringify(props.value, null, 2)}
    </pre>
  );
}
