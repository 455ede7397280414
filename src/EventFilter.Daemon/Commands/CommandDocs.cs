namespace EventFilter.Daemon.Commands;

/// <summary>
/// What COMMAND DOCS tells of each command and subcommand (<c>container|sub</c>): a one-line summary in our words, the
/// version that added it (Redis's for its commands, RedisBloom's for BF.*, which are reported as the "bf" module's, as
/// Redis reports a module's commands), its group, and its arguments (<see cref="CommandArgument"/>). Every command in
/// <see cref="CommandTable"/> has an entry; a test checks it.
/// </summary>
internal static class CommandDocs
{
    public sealed record Doc(string Summary, string Since, string Group, CommandArgument[] Arguments)
    {
        /// <summary>The module a command comes from (bf for BF.*), null for Redis's own.</summary>
        public string? Module => Group == "module" ? "bf" : null;
    }

    private static readonly Dictionary<string, Doc> Docs = new (string Name, string Summary, string Since, string Group, string Syntax)[]
    {
        ("ping", "Answers PONG, or the message given: a check that the server is there.", "1.0.0", "connection", "[message:string]"),
        ("echo", "Answers the message given.", "1.0.0", "connection", "message:string"),
        ("quit", "Answers OK and closes the connection.", "1.0.0", "connection", ""),
        ("command", "Describes every command the server knows.", "2.8.13", "server", ""),
        ("command|count", "Counts the commands the server knows.", "2.8.13", "server", ""),
        ("command|info", "Describes the commands named, or all of them.", "2.8.13", "server", "[command-name:string...]"),
        ("command|docs", "Documents the commands named, or all of them.", "7.0.0", "server", "[command-name:string...]"),
        ("command|list", "Lists the names of every command and subcommand.", "7.0.0", "server", ""),
        ("info", "Reports the server's state and statistics, by section.", "1.0.0", "server", "[section:string...]"),
        ("hello", "Chooses the protocol version, and may authenticate and name the connection.", "6.0.0", "connection",
            "[arguments{protover:integer [AUTH=username-password{username:string password:string}] [SETNAME=clientname:string]}]"),
        ("auth", "Authenticates the connection.", "1.0.0", "connection", "[username:string] password:string"),
        ("bf.reserve", "Creates an empty Bloom filter for a capacity and a false-positive rate.", "1.0.0", "module",
            "key:key error_rate:double capacity:integer [EXPANSION=expansion:integer] [!NONSCALING]"),
        ("bf.add", "Adds an item to a Bloom filter, creating the filter if needed.", "1.0.0", "module", "key:key item:string"),
        ("bf.madd", "Adds items to a Bloom filter, creating the filter if needed.", "1.0.0", "module", "key:key item:string..."),
        ("bf.exists", "Tells whether an item may be in a Bloom filter.", "1.0.0", "module", "key:key item:string"),
        ("bf.mexists", "Tells, for each item, whether it may be in a Bloom filter.", "1.0.0", "module", "key:key item:string..."),
        ("bf.info", "Reports a Bloom filter's parameters and size, or one of them.", "1.0.0", "module",
            "key:key [single_value(!CAPACITY|!SIZE|!FILTERS|!ITEMS|!EXPANSION)]"),
        ("bf.card", "Counts the items added to a Bloom filter.", "2.4.4", "module", "key:key"),
        ("bf.insert", "Adds items to a Bloom filter, creating it with the parameters given if needed.", "1.0.0", "module",
            "key:key [CAPACITY=capacity:integer] [ERROR=error:double] [EXPANSION=expansion:integer] [!NOCREATE] [!NONSCALING] ITEMS=item:string..."),
        ("bf.scandump", "Reads a Bloom filter out in chunks, for BF.LOADCHUNK.", "1.0.0", "module", "key:key iterator:integer"),
        ("bf.loadchunk", "Restores a Bloom filter from the chunks BF.SCANDUMP read.", "1.0.0", "module", "key:key iterator:integer data:string"),
        ("del", "Deletes keys.", "1.0.0", "generic", "key:key..."),
        ("unlink", "Deletes keys (as DEL).", "4.0.0", "generic", "key:key..."),
        ("exists", "Counts the keys given that exist.", "1.0.0", "generic", "key:key..."),
        ("type", "Tells the type of the value at a key.", "1.0.0", "generic", "key:key"),
        ("keys", "Lists the keys that match a pattern.", "1.0.0", "generic", "pattern:pattern"),
        ("scan", "Iterates over the keys, a few at a time.", "2.8.0", "generic",
            "cursor:integer [MATCH=pattern:pattern] [COUNT=count:integer] [TYPE=type:string]"),
        ("flushall", "Deletes every key.", "1.0.0", "server", "[flush-type(!ASYNC|!SYNC)]"),
        ("dbsize", "Counts the keys.", "1.0.0", "server", ""),
        ("select", "Selects a database; there is only database 0.", "1.0.0", "connection", "index:integer"),
        ("client", "Commands about client connections.", "2.4.0", "connection", ""),
        ("client|setname", "Names the connection.", "2.6.9", "connection", "connection-name:string"),
        ("client|getname", "Answers the connection's name.", "2.6.9", "connection", ""),
        ("client|id", "Answers the connection's id.", "5.0.0", "connection", ""),
        ("client|list", "Describes the connections, one line each.", "2.4.0", "connection",
            "[TYPE=client-type(!NORMAL|!MASTER|!REPLICA|!PUBSUB)] [ID=client-id:integer...]"),
        ("client|info", "Describes this connection.", "6.2.0", "connection", ""),
        ("config", "Commands about the server's configuration.", "2.0.0", "server", ""),
        ("config|get", "Answers the configuration parameters that match the patterns.", "2.0.0", "server", "parameter:pattern..."),
        ("multi", "Starts a transaction: commands are queued until EXEC.", "1.2.0", "transactions", ""),
        ("exec", "Runs the commands queued since MULTI.", "1.2.0", "transactions", ""),
        ("discard", "Drops the commands queued since MULTI.", "2.0.0", "transactions", ""),
        ("watch", "Refused here: EXEC does not isolate a transaction from other connections.", "2.2.0", "transactions", "key:key..."),
        ("unwatch", "Forgets watched keys; none are ever watched here.", "2.2.0", "transactions", ""),
        ("latency", "Commands about latency events; none are recorded here.", "2.8.13", "server", ""),
        ("latency|latest", "Answers the latest latency events: none.", "2.8.13", "server", ""),
        ("latency|history", "Answers an event's latency history: none.", "2.8.13", "server", "event:string"),
        ("latency|reset", "Clears latency events: there are none.", "2.8.13", "server", "[event:string...]"),
        ("latency|graph", "Draws an event's latency: there are no samples.", "2.8.13", "server", "event:string"),
        ("latency|histogram", "Answers commands' latency histograms: none.", "7.0.0", "server", "[command:string...]"),
        ("latency|doctor", "Reports on latency events: there are none.", "2.8.13", "server", ""),
        ("latency|help", "Lists LATENCY's subcommands.", "2.8.13", "server", ""),
        ("slowlog", "Commands about the slow log; none is kept here.", "2.2.12", "server", ""),
        ("slowlog|get", "Answers the slow log's entries: none.", "2.2.12", "server", "[count:integer]"),
        ("slowlog|len", "Counts the slow log's entries: 0.", "2.2.12", "server", ""),
        ("slowlog|reset", "Clears the slow log.", "2.2.12", "server", ""),
        ("slowlog|help", "Lists SLOWLOG's subcommands.", "6.2.0", "server", ""),
    }.ToDictionary(d => d.Name, d => new Doc(d.Summary, d.Since, d.Group, CommandArgument.Parse(d.Syntax)));

    /// <summary>The documentation of <paramref name="command"/> (by its lower-case name), null if it has none.</summary>
    public static Doc? Of(CommandSpec command) => Docs.GetValueOrDefault(command.LowerName);
}
