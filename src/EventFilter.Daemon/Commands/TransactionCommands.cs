namespace EventFilter.Daemon.Commands;

/// <summary>
/// MULTI, EXEC, DISCARD, WATCH and UNWATCH, with Redis's replies and errors, over the connection's
/// <see cref="ClientTransaction"/>. EXEC runs the queued commands in order, but not in isolation as Redis does: another
/// client's commands may run between them (connections are served in parallel). WATCH, whose promise rests on that
/// isolation, is refused with a clear error; UNWATCH has nothing to forget and answers OK.
/// </summary>
internal static class TransactionCommands
{
    /// <summary>MULTI</summary>
    public static void Multi(CommandContext context)
    {
        if (context.Transaction.Open)
        {
            context.Reply.Error("ERR MULTI calls can not be nested");
            return;
        }

        context.Transaction.Begin();
        context.Reply.Ok();
    }

    /// <summary>EXEC: the queued commands' replies, as one array.</summary>
    public static void Exec(CommandContext context)
    {
        if (!context.Transaction.Open)
        {
            context.Reply.Error("ERR EXEC without MULTI");
            return;
        }

        context.Transaction.Execute(context, CommandTable.Run);
        context.Client.LastCommand = CommandTable.Of(RespCommand.Exec).LowerName;
    }

    /// <summary>DISCARD</summary>
    public static void Discard(CommandContext context)
    {
        if (!context.Transaction.Open)
        {
            context.Reply.Error("ERR DISCARD without MULTI");
            return;
        }

        context.Transaction.Discard();
        context.Reply.Ok();
    }

    /// <summary>WATCH key [key ...]: refused; inside MULTI with Redis's error.</summary>
    public static void Watch(CommandContext context) => context.Reply.Error(context.Transaction.Open
        ? "ERR WATCH inside MULTI is not allowed"
        : "ERR WATCH is not supported by eventfilterd: EXEC does not isolate a transaction from other clients (MULTI/EXEC without WATCH works)");

    /// <summary>UNWATCH: nothing is ever watched.</summary>
    public static void Unwatch(CommandContext context) => context.Reply.Ok();
}
