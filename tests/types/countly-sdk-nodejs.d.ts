/** The parts of the official Countly Node SDK the analytics tests drive (the package ships no types). */
declare module 'countly-sdk-nodejs' {
  interface CountlyEvent {
    key: string;
    count?: number;
    sum?: number;
    dur?: number;
    segmentation?: Record<string, string | number | boolean>;
  }
  interface InitOptions {
    app_key: string;
    url: string;
    device_id?: string;
    storage_path?: string;
    storage_type?: 'file' | 'memory';
    interval?: number;
    fail_timeout?: number;
    salt?: string;
    force_post?: boolean;
    debug?: boolean;
    metrics?: Record<string, string>;
    app_version?: string;
  }
  interface BulkUser {
    begin_session(metrics?: Record<string, string>, seconds?: number, timestamp?: number): BulkUser;
    add_event(event: CountlyEvent & { timestamp?: number }): BulkUser;
    end_session(seconds?: number, timestamp?: number): BulkUser;
  }
  interface Bulk {
    add_user(conf: { device_id: string }): BulkUser;
    start(callback?: () => void): Bulk;
    stop(): Bulk;
  }
  interface Countly {
    init(options: InitOptions): void;
    begin_session(noHeartBeat?: boolean): void;
    end_session(seconds?: number): void;
    add_event(event: CountlyEvent): void;
    user_details(details: Record<string, unknown>): void;
    halt(preventRequestProcessing?: boolean): void;
    Bulk: new (conf: { app_key: string; url: string; storage_path?: string; storage_type?: 'file' | 'memory'; interval?: number; debug?: boolean; fail_timeout?: number }) => Bulk;
  }
  const Countly: Countly;
  export default Countly;
}
