using System.Buffers;
using System.Collections.Concurrent;
using System.Net.WebSockets;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Server.Databases;

namespace Folio.Server.Changes;

/// <summary>
/// One changes WebSocket: the client sends watch and unwatch commands (<see cref="WatchCommand"/>), the server
/// sends <c>DocumentChange</c>, <c>IndexChange</c>, <c>Confirm</c>, <c>Error</c> and <c>FellBehind</c> messages,
/// each a JSON text message with a <c>Type</c>. Changes are live: watching starts at the newest write, and a
/// consumer that trails it by more than <see cref="ChangesOptions.MaxWebSocketLag"/> etags is told where it was
/// (<c>{"Type":"FellBehind","ResumeFrom":N,"LastEtag":M}</c>, to fill the gap from the HTTP feed with
/// <c>since=N</c>) and skipped to the present. The server reads changes from the documents by etag, never queues
/// them, so a slow consumer costs no memory, and it never makes a writer wait. A socket that receives the seeds'
/// clients' commands (<see cref="SeedsCommands"/>) answers in their shapes (<c>{"Type":"DocumentChange","Value":{…}}</c>)
/// and also reports operations starting and ending (<c>OperationStatusChange</c>), which are few and queued.
/// </summary>
internal sealed partial class ChangesWebSocket
{
    private const int MaxCommandBytes = 64 * 1024;
    private const int Chunk = 1024;

    private static readonly JsonWriterOptions s_options = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private readonly WebSocket _socket;
    private readonly Database _database;
    private readonly ChangesOptions _options;
    private readonly ILogger _logger;
    private readonly SemaphoreSlim _sending = new(1, 1);
    private readonly ArrayBufferWriter<byte> _message = new(1024);
    private readonly Utf8JsonWriter _writer;
    private readonly IndexChangeWatcher _indexes = new();
    private ChangeFilter _filter = ChangeFilter.Nothing;
    private bool _watchIndexes;
    private int _indexWatchers;
    private volatile bool _seeds;
    private readonly Lock _operationsGate = new();
    private readonly ConcurrentQueue<Operations.OperationState> _operationChanges = new();
    private readonly Action<Operations.OperationState> _onOperation;
    private int _operationWatchers;
    private TaskCompletionSource _commanded = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public ChangesWebSocket(WebSocket socket, Database database, ChangesOptions options, ILogger logger)
    {
        _socket = socket;
        _database = database;
        _options = options;
        _logger = logger;
        _writer = new Utf8JsonWriter(_message, s_options);
        _onOperation = state =>
        {
            _operationChanges.Enqueue(state);
            Wake();
        };
    }

    /// <summary>Wakes the sending half: a command arrived or there is an operation change to send.</summary>
    private void Wake() =>
        Interlocked.Exchange(ref _commanded, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();

    /// <summary>Serves the socket until the client closes it, goes away, or the database closes.</summary>
    public async Task RunAsync(CancellationToken aborted)
    {
        // Receiving is never cancelled by a token (that would abort the socket): it ends when the client's close
        // arrives, which the server asks for with its own close when the sending half stops first.
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(aborted, _database.Closing);
        Task receiving = ReceiveAsync(aborted);
        Task sending = SendChangesAsync(stop.Token);
        await Task.WhenAny(receiving, sending);
        await stop.CancelAsync();
        await EndedAsync(sending);
        lock (_operationsGate)
        {
            if (_operationWatchers > 0)
                _database.Operations.Changed -= _onOperation;
            _operationWatchers = 0;
        }

        if (_socket.State is WebSocketState.Open or WebSocketState.CloseReceived)
        {
            string reason = _database.Closing.IsCancellationRequested ? "The database is closing." : "Closed.";
            using var closing = new CancellationTokenSource(_options.WebSocketSendTimeout);
            await EndedAsync(_socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, reason, closing.Token));
        }

        if (!await EndedAsync(receiving.WaitAsync(_options.WebSocketSendTimeout, CancellationToken.None)))
            _socket.Abort();
    }

    /// <summary>Waits for one half of the socket; false when it ended by an error or a timeout, which are logged.</summary>
    private async Task<bool> EndedAsync(Task half)
    {
        try
        {
            await half;
            return true;
        }
        catch (Exception ex) when (ex is OperationCanceledException or WebSocketException or TimeoutException)
        {
            ChangesLog.SocketEnded(_logger, _database.Name, ex.Message);
            return false;
        }
    }

    private async Task ReceiveAsync(CancellationToken aborted)
    {
        byte[] buffer = ArrayPool<byte>.Shared.Rent(MaxCommandBytes);
        try
        {
            while (true)
            {
                int length = 0;
                ValueWebSocketReceiveResult received;
                do
                {
                    if (length == MaxCommandBytes)
                    {
                        await _socket.CloseOutputAsync(WebSocketCloseStatus.MessageTooBig, $"A command may hold at most {MaxCommandBytes} bytes.", aborted);
                        return;
                    }

                    received = await _socket.ReceiveAsync(buffer.AsMemory(length, MaxCommandBytes - length), CancellationToken.None);
                    length += received.Count;
                }
                while (!received.EndOfMessage);

                if (received.MessageType == WebSocketMessageType.Close)
                    return;
                await HandleAsync(buffer.AsSpan(0, length).ToArray(), aborted);
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private async Task HandleAsync(byte[] json, CancellationToken stop)
    {
        WatchCommand command;
        try
        {
            command = WatchCommand.Parse(json);
        }
        catch (Exception ex) when (ex is FormatException or JsonException)
        {
            bool seeds = _seeds || ex.Data.Contains(SeedsCommands.IsSeedsKey);
            await SendAsync(static (w, s) => WriteError(w, null, s.Error, s.Seeds), (Error: ex.Message, Seeds: seeds), stop);
            return;
        }

        if (command.Seeds)
            _seeds = true;
        if (command.Target == "Indexes")
        {
            // The baseline is taken before the confirmation, so every index change after it is reported. The seeds'
            // clients watch each index apart (and filter by name themselves): the reports go on while any is watched.
            lock (_indexes)
            {
                _indexWatchers = !command.Seeds ? (command.Starts ? 1 : 0) : Math.Max(0, _indexWatchers + (command.Starts ? 1 : -1));
                bool watch = _indexWatchers > 0;
                if (watch && !_watchIndexes && !_indexes.Start(_database))
                    return;
                _watchIndexes = watch;
            }
        }
        else if (command.Target == "Operations")
        {
            WatchOperations(command.Starts);
        }
        else
        {
            ChangeFilter filter = command.Apply(Volatile.Read(ref _filter));
            Volatile.Write(ref _filter, filter);
        }

        Wake();
        await SendAsync(static (w, c) => WriteConfirm(w, c), command, stop);
    }

    private void WatchOperations(bool starts)
    {
        lock (_operationsGate)
        {
            int before = _operationWatchers;
            _operationWatchers = Math.Max(0, before + (starts ? 1 : -1));
            if (before == 0 && _operationWatchers > 0)
                _database.Operations.Changed += _onOperation;
            else if (before > 0 && _operationWatchers == 0)
                _database.Operations.Changed -= _onOperation;
        }
    }

    /// <summary>Sends one message, one at a time; a consumer that takes longer than the send timeout is cut off.</summary>
    private async ValueTask SendAsync<TState>(Action<Utf8JsonWriter, TState> write, TState state, CancellationToken stop)
    {
        await _sending.WaitAsync(stop);
        try
        {
            _message.ResetWrittenCount();
            _writer.Reset(_message);
            write(_writer, state);
            _writer.Flush();
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(stop);
            timeout.CancelAfter(_options.WebSocketSendTimeout);
            try
            {
                await _socket.SendAsync(_message.WrittenMemory, WebSocketMessageType.Text, endOfMessage: true, timeout.Token);
            }
            catch (OperationCanceledException) when (!stop.IsCancellationRequested)
            {
                ChangesLog.SlowConsumer(_logger, _database.Name, _options.WebSocketSendTimeout);
                throw;
            }
        }
        finally
        {
            _sending.Release();
        }
    }
}
