// One WebSocket to homed's client protocol: JSON lines as messages, answers matched by id, reconnects by itself.
export function connect({ onState }) {
  let socket;
  let nextId = 1;
  let retryMs = 500;
  const waiting = new Map();

  function open() {
    onState('connecting');
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    socket.addEventListener('open', () => {
      retryMs = 500;
      onState('connected');
    });
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      const call = waiting.get(message.id);
      if (!call || message.stream !== undefined) return;
      waiting.delete(message.id);
      if (message.error) call.reject(new Error(message.error.message));
      else call.resolve(message.result);
    });
    socket.addEventListener('close', () => {
      for (const call of waiting.values()) call.reject(new Error('connection lost'));
      waiting.clear();
      onState('reconnecting');
      setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 10_000);
    });
  }

  function request(method, params = {}) {
    return new Promise((resolve, reject) => {
      if (socket.readyState !== WebSocket.OPEN) return reject(new Error('not connected'));
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  }

  open();
  return { request };
}
