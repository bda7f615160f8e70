import { type CreateFormProps, scopeClass } from '@db8/web/kit';
import { AskForm } from './AskForm.tsx';

// The lobby's create form for a question room. A question room is not made by POST /v1/rooms: it
// opens when this node asks the swarm (POST /v1/swarm/questions, signed with the node key), so this
// is the questions page's ask form, and the lobby goes to the room it opened.

export function CreateQuestion(props: CreateFormProps) {
  return (
    // The lobby does not render create forms inside the module's scope; the ask form's styles need it.
    <div className={`module-scope ${scopeClass('question')}`}>
      <p className="small muted">
        Asking publishes the question to the swarm; its room opens here and answers arrive from any node that
        matches the filters.
      </p>
      <AskForm
        submitLabel="Ask and open its room"
        onAsked={(questionId, roomId) => props.opened(roomId ?? questionId)}
      />
    </div>
  );
}
